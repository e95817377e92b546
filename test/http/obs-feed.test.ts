// Spec "Observability" read routes (events feed, traces, errors, fleet
// health, delegation graph), "Trace metrics", "Fleet health", "Delegation
// graph", "Limits" and "Errors", through the real app and database.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { EventInput, EventRow } from '../../shared/events/types.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

const MIN = 60_000;

async function setup(t: TestContext): Promise<TestApp & { add(inputs: EventInput[]): EventRow[]; get<T>(url: string): Promise<{ status: number; body: T }> }> {
  const ta = await buildTestApp(t);
  return {
    ...ta,
    add: (inputs) => ta.runtime.deps.eventLog.appendMany(inputs),
    get: async <T>(url: string) => {
      const res = await ta.app.inject({ method: 'GET', url });
      return { status: res.statusCode, body: res.json() as T };
    },
  };
}

type Events = { events: EventRow[] };
const seqs = (b: Events) => b.events.map((e) => e.seq);

void test('Observability: GET /api/obs/events filters by teamId, taskId, agentId and traceId, ordered by seq', async (t) => {
  const s = await setup(t);
  const rows = s.add([
    { kind: 'tool_call', teamId: 'T1', taskId: 'k1', agentId: 'a1', traceId: 'r1' },
    { kind: 'tool_call', teamId: 'T2', taskId: 'k1', agentId: 'a2', traceId: 'r1' },
    { kind: 'tool_result', teamId: 'T1', taskId: 'k2', agentId: 'a1', traceId: 'r2' },
    { kind: 'error', teamId: 'T1', taskId: 'k2', agentId: 'a2', traceId: 'r2' },
  ]);
  const seq = rows.map((r) => r.seq);
  const all = await s.get<Events>('/api/obs/events');
  assert.equal(all.status, 200);
  assert.deepEqual(seqs(all.body), seq);
  assert.deepEqual(Object.keys(all.body.events[0] ?? {}), [
    'seq', 'id', 'ts', 'kind', 'teamId', 'taskId', 'agentId', 'runtime', 'traceId', 'spanId', 'parentSpanId',
    'correlationId', 'data', 'tenantId', 'createdAt',
  ]);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?teamId=T1')).body), [seq[0], seq[2], seq[3]]);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?taskId=k1')).body), [seq[0], seq[1]]);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?agentId=a2')).body), [seq[1], seq[3]]);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?traceId=r2')).body), [seq[2], seq[3]]);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?teamId=T1&agentId=a2&traceId=r2&taskId=k2')).body), [seq[3]]);
  assert.deepEqual((await s.get<Events>('/api/obs/events?teamId=nobody')).body, { events: [] });
});

void test('Observability: GET /api/obs/events kinds is comma-separated with blank values dropped', async (t) => {
  const s = await setup(t);
  const seq = s.add([{ kind: 'tool_call' }, { kind: 'tool_result' }, { kind: 'error' }, { kind: 'cost' }]).map((r) => r.seq);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?kinds=,tool_call,,error,')).body), [seq[0], seq[2]]);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?kinds=cost')).body), [seq[3]]);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?kinds=,,')).body), seq, 'only blanks: no kind filter');
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?kinds=no_such_kind')).body), []);
});

void test('Observability: GET /api/obs/events since is ts >= and afterSeq is seq >', async (t) => {
  const s = await setup(t);
  const now = Date.now();
  const seq = s.add([{ kind: 'tool_call', ts: now - 3000 }, { kind: 'tool_call', ts: now - 2000 }, { kind: 'tool_call', ts: now - 1000 }]).map((r) => r.seq);
  assert.deepEqual(seqs((await s.get<Events>(`/api/obs/events?since=${now - 2000}`)).body), [seq[1], seq[2]]);
  assert.deepEqual(seqs((await s.get<Events>(`/api/obs/events?afterSeq=${seq[0]}`)).body), [seq[1], seq[2]]);
  assert.deepEqual(seqs((await s.get<Events>(`/api/obs/events?afterSeq=${seq[0]}&since=${now - 1000}`)).body), [seq[2]]);
});

void test('Observability: GET /api/obs/events order is desc only when literally desc', async (t) => {
  const s = await setup(t);
  const seq = s.add([{ kind: 'tool_call' }, { kind: 'tool_call' }, { kind: 'tool_call' }]).map((r) => r.seq);
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?order=desc')).body), [...seq].reverse());
  for (const o of ['DESC', 'asc', 'descending', '']) {
    assert.deepEqual(seqs((await s.get<Events>(`/api/obs/events?order=${o}`)).body), seq, `order=${o}`);
  }
  assert.deepEqual(seqs((await s.get<Events>('/api/obs/events?order=desc&limit=2')).body), [seq[2], seq[1]], 'desc: the newest');
});

void test('Limits: GET /api/obs/events limit is clamped 1 to 5000, default 500', async (t) => {
  const s = await setup(t);
  s.add(Array.from({ length: 5001 }, (_, i) => ({ kind: 'tool_call' as const, data: { i } })));
  const count = async (q: string) => (await s.get<Events>(`/api/obs/events${q}`)).body.events.length;
  assert.equal(await count(''), 500);
  assert.equal(await count('?limit=0'), 1);
  assert.equal(await count('?limit=-7'), 1);
  assert.equal(await count('?limit=7'), 7);
  assert.equal(await count('?limit=7.9'), 7);
  assert.equal(await count('?limit=99999'), 5000);
});

void test('Observability: GET /api/obs/events wrong-typed query values fall back to the defaults, never 500', async (t) => {
  const s = await setup(t);
  const seq = s.add(Array.from({ length: 3 }, () => ({ kind: 'tool_call' as const, teamId: 'T1' }))).map((r) => r.seq);
  for (const q of ['limit=abc', 'limit=', 'since=abc', 'afterSeq=x', 'afterSeq=NaN', 'since=Infinity', 'teamId=', 'teamId=T1&teamId=T2',
    'limit=1&limit=2', 'order=desc&order=desc', 'kinds=tool_call&kinds=error', 'since[]=1']) {
    const r = await s.get<Events>(`/api/obs/events?${q}`);
    assert.equal(r.status, 200, q);
    assert.deepEqual(seqs(r.body), seq, q);
  }
});

void test('Observability: payload-bearing responses mask the event data field; numeric telemetry survives', async (t) => {
  const s = await setup(t);
  // A row written by another writer of the file, without appendEvent's masking.
  s.runtime.deps.db.prepare(
    `INSERT INTO events (id, ts, kind, trace_id, data, created_at) VALUES ('x1', ?, 'cost', 'rm', ?, ?)`,
  ).run(Date.now(), JSON.stringify({ usd: 0.5, inputTokens: 10, nested: [{ apiKey: 'plain-secret-value', n: 3 }], note: 'Bearer abcdefghijklmnop' }), Date.now());
  const expected = { usd: 0.5, inputTokens: 10, nested: [{ apiKey: '••••', n: 3 }], note: 'Bearer ••••' };
  const feed = await s.get<Events>('/api/obs/events?traceId=rm');
  assert.deepEqual(JSON.parse(feed.body.events[0]?.data ?? ''), expected);
  const trace = await s.get<{ events: EventRow[]; metrics: { totalCostUsd: number } }>('/api/obs/traces/rm');
  assert.deepEqual(JSON.parse(trace.body.events[0]?.data ?? ''), expected);
  assert.equal(trace.body.metrics.totalCostUsd, 0.5);
});

interface TraceBody {
  traceId: string;
  events: EventRow[];
  metrics: Record<string, unknown>;
}

void test('Trace metrics: GET /api/obs/traces/:traceId returns seq-ascending events and the metrics', async (t) => {
  const s = await setup(t);
  const t0 = Date.now() - 10 * MIN;
  const rows = s.add([
    { kind: 'tool_call', traceId: 'tr', agentId: 'a1', ts: t0 },
    { kind: 'tool_result', traceId: 'tr', agentId: 'a1', ts: t0 + 1000, data: { isError: true } },
    { kind: 'tool_call', traceId: 'tr', agentId: 'a2', ts: t0 + 2000 },
    { kind: 'tool_result', traceId: 'tr', agentId: 'a2', ts: t0 + 3000, data: { ok: true } },
    { kind: 'tool_result', traceId: 'tr', agentId: 'a2', ts: t0 + 4000, data: { ok: false } },
    { kind: 'tool_result', traceId: 'tr', agentId: 'a2', ts: t0 + 5000, data: {} },
    { kind: 'cost', traceId: 'tr', agentId: 'a1', ts: t0 + 6000, data: { usd: 0.25, inputTokens: 100, outputTokens: 400 } },
    // No usd: priced from the tokens (gpt-4o: 2.5 in, 10 out per million).
    { kind: 'cost', traceId: 'tr', agentId: 'a1', ts: t0 + 2 * MIN, data: { model: 'openai/gpt-4o', inputTokens: 1_000_000, outputTokens: 200 } },
    { kind: 'cost', traceId: 'other', agentId: 'a3', ts: t0, data: { usd: 9 } },
  ]);
  const r = await s.get<TraceBody>('/api/obs/traces/tr');
  assert.equal(r.status, 200);
  assert.equal(r.body.traceId, 'tr');
  assert.deepEqual(seqs(r.body), rows.slice(0, 8).map((x) => x.seq));
  const m = r.body.metrics;
  assert.ok(Math.abs((m.totalCostUsd as number) - (0.25 + 2.5 + 0.002)) < 1e-9, String(m.totalCostUsd));
  assert.deepEqual({ ...m, totalCostUsd: 0 }, {
    totalCostUsd: 0,
    inputTokens: 1_000_100,
    outputTokens: 600,
    toolErrorRate: 0.5,
    toolCalls: 2,
    toolErrors: 2,
    eventCounts: { tool_call: 2, tool_result: 4, cost: 2 },
    activeAgents: 2,
    tokensPerMinute: 600 / 2, // over the 2-minute window
  });
});

void test('Trace metrics: tokensPerMinute is 0 when the window is under 1 s', async (t) => {
  const s = await setup(t);
  const ts = Date.now();
  s.add([
    { kind: 'cost', traceId: 'q', ts, data: { usd: 1, outputTokens: 500 } },
    { kind: 'cost', traceId: 'q', ts: ts + 999, data: { usd: 1, outputTokens: 500 } },
  ]);
  const r = await s.get<TraceBody>('/api/obs/traces/q');
  assert.equal(r.body.metrics.tokensPerMinute, 0);
  assert.equal(r.body.metrics.outputTokens, 1000);
});

void test('Observability: GET /api/obs/traces/:traceId of an unknown trace is 200 with empty events and zeroed metrics', async (t) => {
  const s = await setup(t);
  const r = await s.get<TraceBody>('/api/obs/traces/nope');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    traceId: 'nope',
    events: [],
    metrics: { totalCostUsd: 0, inputTokens: 0, outputTokens: 0, toolErrorRate: 0, toolCalls: 0, toolErrors: 0, eventCounts: {}, activeAgents: 0, tokensPerMinute: 0 },
  });
});

void test('Limits: a trace read is capped at 5000 events (the first, seq ascending)', async (t) => {
  const s = await setup(t);
  const rows = s.add(Array.from({ length: 5003 }, () => ({ kind: 'tool_call' as const, traceId: 'big' })));
  const r = await s.get<TraceBody>('/api/obs/traces/big');
  assert.equal(r.body.events.length, 5000);
  assert.equal(r.body.events[0]?.seq, rows[0]?.seq);
  assert.equal(r.body.events[4999]?.seq, rows[4999]?.seq);
  assert.equal(r.body.metrics.toolCalls, 5000);
});

interface ErrorsBody {
  errors: Array<Record<string, unknown>>;
  harnessBugCount: number;
}

void test('Observability: GET /api/obs/errors projects kind error only, newest first by ts, with defaults', async (t) => {
  const s = await setup(t);
  const now = Date.now();
  const [e1, , e3, e4] = s.add([
    { kind: 'error', ts: now - 3000, taskId: 'k1', agentId: 'a1', runtime: 'cli-a', data: { errorClass: 'Timeout', message: 'slow' } },
    { kind: 'tool_result', ts: now, data: { isError: true } },
    { kind: 'error', ts: now - 1000, data: { message: 'what happened' } },
    { kind: 'error', ts: now - 2000, data: { errorClass: '', message: 42 } },
  ]);
  const r = await s.get<ErrorsBody>('/api/obs/errors');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    errors: [
      { seq: e3?.seq, ts: now - 1000, taskId: null, agentId: null, runtime: null, errorClass: 'Unknown', harnessBug: true, message: 'what happened' },
      { seq: e4?.seq, ts: now - 2000, taskId: null, agentId: null, runtime: null, errorClass: 'Unknown', harnessBug: true, message: '' },
      { seq: e1?.seq, ts: now - 3000, taskId: 'k1', agentId: 'a1', runtime: 'cli-a', errorClass: 'Timeout', harnessBug: false, message: 'slow' },
    ],
    harnessBugCount: 2,
  });
  const bugs = await s.get<ErrorsBody>('/api/obs/errors?harnessBug=true');
  assert.deepEqual(bugs.body.errors.map((e) => e.seq), [e3?.seq, e4?.seq]);
  assert.equal(bugs.body.harnessBugCount, 2);
  for (const v of ['TRUE', '1', 'false', 'yes']) {
    assert.equal((await s.get<ErrorsBody>(`/api/obs/errors?harnessBug=${v}`)).body.errors.length, 3, `harnessBug=${v}`);
  }
  assert.deepEqual((await s.get<ErrorsBody>(`/api/obs/errors?since=${now - 2000}`)).body.errors.map((e) => e.seq), [e3?.seq, e4?.seq]);
  assert.equal((await s.get<ErrorsBody>('/api/obs/errors?since=abc')).body.errors.length, 3, 'a wrong-typed since is ignored');
});

void test('Limits: the error feed reads 500 rows; harnessBugCount counts that whole window whatever the filter', async (t) => {
  const s = await setup(t);
  const now = Date.now();
  // 100 old harness bugs, then 500 newer classified errors: the old ones are outside the window.
  s.add(Array.from({ length: 100 }, (_, i) => ({ kind: 'error' as const, ts: now - 100_000 + i })));
  s.add(Array.from({ length: 499 }, (_, i) => ({ kind: 'error' as const, ts: now - 1000 + i, data: { errorClass: 'Net' } })));
  s.add([{ kind: 'error', ts: now, data: { message: 'newest bug' } }]);
  const all = await s.get<ErrorsBody>('/api/obs/errors');
  assert.equal(all.body.errors.length, 500);
  assert.equal(all.body.harnessBugCount, 1);
  const bugs = await s.get<ErrorsBody>('/api/obs/errors?harnessBug=true');
  assert.deepEqual(bugs.body.errors.map((e) => e.message), ['newest bug']);
  assert.equal(bugs.body.harnessBugCount, 1);
});

interface HealthBody {
  agents: Array<{ agentId: string; status: string; lastEventTs: number; activeTaskId: string | null; openExecutions: number; costUsd: number }>;
}

void test('Fleet health: GET /api/obs/health derives idle, working, stalled and zombie per agent', async (t) => {
  const s = await setup(t);
  const now = Date.now();
  s.add([
    { kind: 'execution_started', agentId: 'idle', taskId: 'k0', ts: now - 40 * MIN },
    { kind: 'execution_completed', agentId: 'idle', taskId: 'k0', ts: now - 39 * MIN },
    { kind: 'execution_started', agentId: 'working', taskId: 'k1', ts: now - 10 * MIN },
    { kind: 'cost', agentId: 'working', taskId: 'k1', ts: now - MIN, data: { usd: 0.5 } },
    { kind: 'execution_started', agentId: 'stalled', taskId: 'k2', ts: now - 6 * MIN },
    { kind: 'execution_started', agentId: 'zombie', taskId: 'k3', ts: now - 31 * MIN },
    { kind: 'execution_started', agentId: 'zombie', taskId: 'k4', ts: now - 31 * MIN },
  ]);
  const r = await s.get<HealthBody>('/api/obs/health');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.agents, [
    { agentId: 'idle', status: 'idle', lastEventTs: now - 39 * MIN, activeTaskId: null, openExecutions: 0, costUsd: 0 },
    { agentId: 'stalled', status: 'stalled', lastEventTs: now - 6 * MIN, activeTaskId: 'k2', openExecutions: 1, costUsd: 0 },
    { agentId: 'working', status: 'working', lastEventTs: now - MIN, activeTaskId: 'k1', openExecutions: 1, costUsd: 0.5 },
    { agentId: 'zombie', status: 'zombie', lastEventTs: now - 31 * MIN, activeTaskId: 'k4', openExecutions: 2, costUsd: 0 },
  ]);
});

void test('Limits: fleet health folds the most recent 5000 events of the team; an agent that left the window is gone', async (t) => {
  const s = await setup(t);
  s.add([
    { kind: 'execution_started', teamId: 'T', agentId: 'early', taskId: 'k' },
    { kind: 'tool_call', teamId: 'U', agentId: 'other-team' },
  ]);
  s.add(Array.from({ length: 4999 }, () => ({ kind: 'tool_call' as const, teamId: 'T', agentId: 'busy' })));
  const inWindow = await s.get<HealthBody>('/api/obs/health?teamId=T');
  assert.deepEqual(inWindow.body.agents.map((a) => a.agentId), ['busy', 'early']);
  s.add([{ kind: 'tool_call', teamId: 'T', agentId: 'busy' }]);
  const after = await s.get<HealthBody>('/api/obs/health?teamId=T');
  assert.deepEqual(after.body.agents.map((a) => a.agentId), ['busy']);
  const global = await s.get<HealthBody>('/api/obs/health?teamId=');
  assert.deepEqual(global.body.agents.map((a) => a.agentId), ['busy'], 'the global window is the last 5000 of all teams');
});

interface GraphBody {
  tasks: Array<Record<string, unknown>>;
  taskEdges: Array<Record<string, unknown>>;
  agents: Array<{ id: string; costUsd: number; taskIds: string[] }>;
  agentEdges: Array<Record<string, unknown>>;
}

void test('Delegation graph: GET /api/obs/graph folds board events into tasks, edges and agents, unwrapped', async (t) => {
  const s = await setup(t);
  const board = s.runtime.deps.domain.board;
  const root = board.create({ title: 'root', teamId: 'T', assigneeAgentId: 'lead' });
  const child = board.delegate(root.id, { title: 'child', fromAgentId: 'lead', toAgentId: 'worker' });
  const other = board.create({ title: 'other', teamId: 'T', assigneeAgentId: 'worker' });
  board.linkDependency(other.id, child.id);
  s.add([{ kind: 'cost', teamId: 'T', taskId: child.id, agentId: 'worker', data: { usd: 1.5 } }]);
  const r = await s.get<GraphBody>('/api/obs/graph?teamId=T');
  assert.equal(r.status, 200);
  const task = (id: string, title: string, assignee: string, parent: string | null, costUsd: number) =>
    ({ id, title, status: 'todo', assigneeAgentId: assignee, parentTaskId: parent, runtime: null, teamId: 'T', costUsd });
  assert.deepEqual(r.body.tasks, [
    task(root.id, 'root', 'lead', null, 0),
    task(child.id, 'child', 'worker', root.id, 1.5),
    task(other.id, 'other', 'worker', null, 0),
  ]);
  assert.deepEqual(r.body.taskEdges, [
    { id: `delegation:${root.id}->${child.id}`, source: root.id, target: child.id, kind: 'delegation' },
    { id: `dependency:${child.id}->${other.id}`, source: child.id, target: other.id, kind: 'dependency' },
  ]);
  assert.deepEqual(r.body.agents, [
    { id: 'lead', costUsd: 0, taskIds: [root.id] },
    { id: 'worker', costUsd: 1.5, taskIds: [child.id, other.id] },
  ]);
  assert.deepEqual(r.body.agentEdges, [{ id: 'delegation:lead->worker', source: 'lead', target: 'worker', kind: 'delegation' }]);
  board.unlinkDependency(other.id, child.id);
  const unlinked = await s.get<GraphBody>('/api/obs/graph?teamId=T');
  assert.deepEqual(unlinked.body.taskEdges.map((e) => e.kind), ['delegation']);
  assert.deepEqual(await s.get<GraphBody>('/api/obs/graph?teamId=nobody'), { status: 200, body: { tasks: [], taskEdges: [], agents: [], agentEdges: [] } });
});

void test('Errors: an observability read that throws answers 500 { error } through the display redactor', async (t) => {
  const s = await setup(t);
  // The feed prepares a statement per filter combination on first use: make that fail.
  const db = s.runtime.deps.db;
  const prepare = db.prepare.bind(db);
  db.prepare = (() => {
    throw new Error('disk says no: Bearer abcdefghijklmnopqrstuv');
  }) as typeof db.prepare;
  t.after(() => {
    db.prepare = prepare;
  });
  const r = await s.get<{ error: string }>('/api/obs/events?teamId=T&kinds=error&since=1&afterSeq=0&order=desc');
  assert.equal(r.status, 500);
  assert.deepEqual(r.body, { error: 'disk says no: Bearer ••••' });
});
