// Spec "Smaller resources" → "Cost records" and "Limits" (cost records list,
// 500 rows): GET /api/cost-records, POST /api/cost-records and
// GET /api/cost-records/summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { COST_MESSAGES as M, type CostRecord } from '../../shared/costs/index.ts';
import type { Db } from '../../shared/db/open.ts';
import { costUsd } from '../../shared/pricing/index.ts';
import { buildTestApp } from '../helpers/app.ts';

const S = 'Smaller resources → Cost records';
const DAY_MS = 86_400_000;

type CostRow = CostRecord;
interface Totals {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  records: number;
}
interface Summary {
  days: number;
  since: number;
  until: number;
  totals: Totals;
  byAgent: Array<Totals & { agentId: string; name: string | null }>;
  daily: Array<Totals & { date: string }>;
}

const ROW_KEYS = ['agentId', 'costUsd', 'createdAt', 'id', 'inputTokens', 'model', 'outputTokens', 'runId', 'sessionKey', 'teamId'];

const post = (app: FastifyInstance, payload: unknown) => app.inject({ method: 'POST', url: '/api/cost-records', payload: payload as object });
const rawPost = (app: FastifyInstance, payload: string | undefined) =>
  payload === undefined
    ? app.inject({ method: 'POST', url: '/api/cost-records' })
    : app.inject({ method: 'POST', url: '/api/cost-records', headers: { 'content-type': 'application/json' }, payload });

const count = (db: Db, table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

/** Writes a cost row directly, to place it at a chosen time. */
function seed(db: Db, id: string, agentId: string, createdAt: number, over: Partial<CostRow> = {}) {
  db.prepare(
    `INSERT INTO cost_records (id, agent_id, team_id, run_id, session_key, model, input_tokens, output_tokens, cost_usd, created_at)
     VALUES (@id, @agentId, @teamId, NULL, NULL, NULL, @inputTokens, @outputTokens, @costUsd, @createdAt)`,
  ).run({ id, agentId, teamId: over.teamId ?? null, inputTokens: over.inputTokens ?? 10, outputTokens: over.outputTokens ?? 20, costUsd: over.costUsd ?? 0.5, createdAt });
}

// ---------------------------------------------------------------- POST

void test(`${S}: POST records one run, prices it with the pricing table, upserts a placeholder agent and returns the row`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const db = runtime.deps.db;
  const before = Date.now();
  const res = await post(app, { agentId: 'coder', model: 'claude-opus-4', inputTokens: 1_000_000, outputTokens: 2_000, teamId: 'team-1', runId: 'run-1', sessionKey: 'agent:coder:main' });
  assert.equal(res.statusCode, 200, res.body);
  const row = res.json<CostRow>();
  assert.deepEqual(Object.keys(row).sort(), ROW_KEYS);
  assert.equal(row.agentId, 'coder');
  assert.equal(row.model, 'claude-opus-4');
  assert.equal(row.teamId, 'team-1');
  assert.equal(row.runId, 'run-1');
  assert.equal(row.sessionKey, 'agent:coder:main');
  assert.equal(row.inputTokens, 1_000_000);
  assert.equal(row.outputTokens, 2_000);
  // A known model: 15 in / 75 out per million.
  assert.equal(row.costUsd, costUsd('claude-opus-4', 1_000_000, 2_000));
  assert.equal(row.costUsd, 15 + 0.15);
  assert.ok(row.createdAt >= before && row.createdAt <= Date.now());

  const stored = db.prepare('SELECT agent_id, model, input_tokens, output_tokens, cost_usd, created_at FROM cost_records WHERE id = ?').get(row.id);
  assert.deepEqual(stored, { agent_id: 'coder', model: 'claude-opus-4', input_tokens: 1_000_000, output_tokens: 2_000, cost_usd: row.costUsd, created_at: row.createdAt });
  // The placeholder agent row: named after its id, gateway runtime, live.
  const agent = db.prepare('SELECT id, name, runtime, is_archived FROM agents WHERE id = ?').get('coder');
  assert.deepEqual(agent, { id: 'coder', name: 'coder', runtime: 'gateway', is_archived: 0 });
});

void test(`${S}: POST prices an unrecognised or missing model at the default 3 and 15 per million`, async (t) => {
  const { app } = await buildTestApp(t);
  for (const model of ['some-future-model', undefined]) {
    const res = await post(app, { agentId: 'a', model, inputTokens: 2_000_000, outputTokens: 1_000_000 });
    assert.equal(res.statusCode, 200, res.body);
    const row = res.json<CostRow>();
    assert.equal(row.costUsd, 2 * 3 + 1 * 15);
    assert.equal(row.costUsd, costUsd(model, 2_000_000, 1_000_000));
    assert.equal(row.model, model ?? null);
  }
});

void test(`${S}: POST keeps an existing agent row as it is (the upsert only fills a gap)`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const created = await app.inject({ method: 'POST', url: '/api/agents', payload: { id: 'named', name: 'Named Agent', runtime: 'native' } });
  assert.equal(created.statusCode, 200, created.body);
  const res = await post(app, { agentId: 'named', inputTokens: 1, outputTokens: 1 });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(runtime.deps.db.prepare('SELECT name, runtime FROM agents WHERE id = ?').get('named'), { name: 'Named Agent', runtime: 'native' });
  assert.equal(count(runtime.deps.db, 'agents'), 1);
});

void test(`${S}: POST accepts zero tokens (zero passes) and a null or blank optional field as null`, async (t) => {
  const { app } = await buildTestApp(t);
  const res = await post(app, { agentId: 'a', inputTokens: 0, outputTokens: 0, model: null, teamId: '  ', runId: null });
  assert.equal(res.statusCode, 200, res.body);
  const row = res.json<CostRow>();
  assert.equal(row.inputTokens, 0);
  assert.equal(row.outputTokens, 0);
  assert.equal(row.costUsd, 0);
  assert.equal(row.model, null);
  assert.equal(row.teamId, null);
  assert.equal(row.runId, null);
  assert.equal(row.sessionKey, null);
});

void test(`${S}: POST with a non-object body is 400 and writes nothing`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  for (const payload of [undefined, '', '[1,2]', '"text"', 'null', '42', '{"agentId": ']) {
    const res = await rawPost(app, payload);
    assert.equal(res.statusCode, 400, `body ${String(payload)}: ${res.body}`);
    assert.deepEqual(res.json(), { error: M.body }, `body ${String(payload)}`);
  }
  assert.equal(count(runtime.deps.db, 'cost_records'), 0);
  assert.equal(count(runtime.deps.db, 'agents'), 0);
});

void test(`${S}: POST with a missing required field (null or undefined tokens) is 400 and writes nothing`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ inputTokens: 1, outputTokens: 1 }, M.agentIdRequired],
    [{ agentId: '', inputTokens: 1, outputTokens: 1 }, M.agentIdRequired],
    [{ agentId: '   ', inputTokens: 1, outputTokens: 1 }, M.agentIdRequired],
    [{ agentId: 7, inputTokens: 1, outputTokens: 1 }, M.agentIdRequired],
    [{ agentId: 'a', outputTokens: 1 }, M.inputTokensRequired],
    [{ agentId: 'a', inputTokens: null, outputTokens: 1 }, M.inputTokensRequired],
    [{ agentId: 'a', inputTokens: 1 }, M.outputTokensRequired],
    [{ agentId: 'a', inputTokens: 1, outputTokens: null }, M.outputTokensRequired],
    [{}, M.agentIdRequired],
  ];
  for (const [body, error] of cases) {
    const res = await post(app, body);
    assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
    assert.deepEqual(res.json(), { error }, JSON.stringify(body));
  }
  assert.equal(count(runtime.deps.db, 'cost_records'), 0);
  assert.equal(count(runtime.deps.db, 'agents'), 0, 'no placeholder agent on a 400');
});

void test(`${S}: POST with a negative, fractional, string or oversized token count, an agentId that cannot be an agent id, or a non-string label, is 400`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ agentId: 'a', inputTokens: -1, outputTokens: 1 }, M.inputTokensInvalid],
    [{ agentId: 'a', inputTokens: 1.5, outputTokens: 1 }, M.inputTokensInvalid],
    [{ agentId: 'a', inputTokens: '10', outputTokens: 1 }, M.inputTokensInvalid],
    [{ agentId: 'a', inputTokens: 1, outputTokens: -5 }, M.outputTokensInvalid],
    [{ agentId: 'a', inputTokens: 1, outputTokens: 2 ** 60 }, M.outputTokensInvalid],
    [{ agentId: 'a', inputTokens: 1, outputTokens: true }, M.outputTokensInvalid],
    [{ agentId: 'a', inputTokens: 1, outputTokens: 1, model: 42 }, M.optionalString('model')],
    [{ agentId: 'a b', inputTokens: 1, outputTokens: 1 }, M.agentIdInvalid],
    [{ agentId: 'x/../y', inputTokens: 1, outputTokens: 1 }, M.agentIdInvalid],
    [{ agentId: 'a'.repeat(129), inputTokens: 1, outputTokens: 1 }, M.agentIdInvalid],
    [{ agentId: 'a', inputTokens: 1, outputTokens: 1, sessionKey: ['x'] }, M.optionalString('sessionKey')],
  ];
  for (const [body, error] of cases) {
    const res = await post(app, body);
    assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
    assert.deepEqual(res.json(), { error }, JSON.stringify(body));
  }
  assert.equal(count(runtime.deps.db, 'cost_records'), 0);
  assert.equal(count(runtime.deps.db, 'agents'), 0);
});

void test(`${S}: POST on a database failure is a redacted 500 and leaves no placeholder agent (one transaction)`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.db.exec('DROP TABLE cost_records');
  const res = await post(app, { agentId: 'ghost', inputTokens: 1, outputTokens: 1 });
  assert.equal(res.statusCode, 500);
  assert.deepEqual(res.json(), { error: 'database error (SQLITE_ERROR)' });
  assert.equal(count(runtime.deps.db, 'agents'), 0, 'the agent upsert rolled back with the failed insert');
});

// ---------------------------------------------------------------- GET list

void test(`${S}: GET lists newest first, filters by agentId and teamId, and returns [] when empty`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  let res = await app.inject('/api/cost-records');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), []);

  const db = runtime.deps.db;
  const now = Date.now();
  seed(db, 'r-old', 'a', now - 3000, { teamId: 't1' });
  seed(db, 'r-new', 'b', now - 1000, { teamId: 't2' });
  seed(db, 'r-mid', 'a', now - 2000, { teamId: 't2' });
  res = await app.inject('/api/cost-records');
  assert.equal(res.statusCode, 200);
  const rows = res.json<CostRow[]>();
  assert.deepEqual(rows.map((r) => r.id), ['r-new', 'r-mid', 'r-old']);
  assert.deepEqual(Object.keys(rows[0] as object).sort(), ROW_KEYS);
  assert.deepEqual(rows[2], { id: 'r-old', agentId: 'a', teamId: 't1', runId: null, sessionKey: null, model: null, inputTokens: 10, outputTokens: 20, costUsd: 0.5, createdAt: now - 3000 });

  assert.deepEqual((await app.inject('/api/cost-records?agentId=a')).json<CostRow[]>().map((r) => r.id), ['r-mid', 'r-old']);
  assert.deepEqual((await app.inject('/api/cost-records?teamId=t2')).json<CostRow[]>().map((r) => r.id), ['r-new', 'r-mid']);
  assert.deepEqual((await app.inject('/api/cost-records?agentId=a&teamId=t2')).json<CostRow[]>().map((r) => r.id), ['r-mid']);
  assert.deepEqual((await app.inject('/api/cost-records?agentId=nobody')).json(), []);
});

void test(`${S}: GET rows posted back to back come back newest first (ties broken by the time-ordered id)`, async (t) => {
  const { app } = await buildTestApp(t);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await post(app, { agentId: 'a', inputTokens: i, outputTokens: i })).json<CostRow>().id);
  const listed = (await app.inject('/api/cost-records')).json<CostRow[]>();
  assert.deepEqual(listed.map((r) => r.id), ids.reverse());
});

void test(`${S}: GET caps the list at 500 rows and clamps limit to 1..500`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const db = runtime.deps.db;
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < 520; i++) seed(db, `r-${String(i).padStart(4, '0')}`, 'a', now - 600_000 + i);
  })();
  let rows = (await app.inject('/api/cost-records')).json<CostRow[]>();
  assert.equal(rows.length, 500, 'default is the cap');
  assert.equal(rows[0]?.id, 'r-0519');
  assert.equal(rows[499]?.id, 'r-0020');

  const limitOf = async (q: string) => {
    const res = await app.inject(`/api/cost-records?${q}`);
    assert.equal(res.statusCode, 200, `${q}: ${res.body}`);
    return res.json<CostRow[]>().length;
  };
  assert.equal(await limitOf('limit=3'), 3);
  assert.equal(await limitOf('limit=9999'), 500);
  assert.equal(await limitOf('limit=0'), 1);
  assert.equal(await limitOf('limit=-4'), 1);
  assert.equal(await limitOf('limit=2.9'), 2);
  rows = (await app.inject('/api/cost-records?limit=1')).json<CostRow[]>();
  assert.deepEqual(rows.map((r) => r.id), ['r-0519']);
});

void test(`${S}: GET with wrong-typed query parameters falls back to the defaults, never a 500`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const now = Date.now();
  seed(runtime.deps.db, 'r1', 'a', now - 2);
  seed(runtime.deps.db, 'r2', 'b', now - 1);
  for (const q of ['limit=abc', 'limit=', 'limit=1&limit=2', 'agentId=', 'agentId=a&agentId=b', 'teamId=&limit=NaN', 'limit=Infinity', 'unknown=1']) {
    const res = await app.inject(`/api/cost-records?${q}`);
    assert.equal(res.statusCode, 200, `${q}: ${res.body}`);
    assert.deepEqual(res.json<CostRow[]>().map((r) => r.id), ['r2', 'r1'], q);
  }
});

void test(`${S}: GET on a database failure is a redacted 500`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.db.exec('DROP TABLE cost_records');
  for (const url of ['/api/cost-records', '/api/cost-records/summary']) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 500, url);
    assert.deepEqual(res.json(), { error: 'database error (SQLITE_ERROR)' }, url);
  }
});

// ---------------------------------------------------------------- summary

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

void test(`${S}: GET summary with no rows is zero totals, no agents and 30 zero days ending today`, async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject('/api/cost-records/summary');
  assert.equal(res.statusCode, 200, res.body);
  const s = res.json<Summary>();
  assert.deepEqual(Object.keys(s).sort(), ['byAgent', 'daily', 'days', 'since', 'totals', 'until']);
  assert.equal(s.days, 30);
  assert.deepEqual(s.totals, { costUsd: 0, inputTokens: 0, outputTokens: 0, records: 0 });
  assert.deepEqual(s.byAgent, []);
  assert.equal(s.daily.length, 30);
  assert.equal(s.daily[29]?.date, utcDay(Date.now()));
  assert.equal(s.daily[0]?.date, utcDay(Date.now() - 29 * DAY_MS));
  assert.ok(s.daily.every((d) => d.records === 0 && d.costUsd === 0 && d.inputTokens === 0 && d.outputTokens === 0));
  assert.equal(s.until - s.since, 30 * DAY_MS);
});

void test(`${S}: GET summary totals the window, names agents (null once deleted), and zero-fills the daily series`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const db = runtime.deps.db;
  const now = Date.now();
  const todayStart = Math.floor(now / DAY_MS) * DAY_MS;

  // Through the route: a named agent and a placeholder.
  const created = await app.inject({ method: 'POST', url: '/api/agents', payload: { id: 'writer', name: 'Writer', runtime: 'native' } });
  assert.equal(created.statusCode, 200, created.body);
  const a = (await post(app, { agentId: 'writer', model: 'gpt-4o', inputTokens: 1_000_000, outputTokens: 100_000 })).json<CostRow>();
  const b = (await post(app, { agentId: 'temp', inputTokens: 100, outputTokens: 200 })).json<CostRow>();
  // Older rows, written directly: 5 days ago, the window's first day, and just outside it.
  seed(db, 'five-days', 'writer', todayStart - 5 * DAY_MS + 1000, { inputTokens: 7, outputTokens: 3, costUsd: 0.25 });
  seed(db, 'first-day', 'gone', todayStart - 29 * DAY_MS, { inputTokens: 1, outputTokens: 1, costUsd: 1 });
  seed(db, 'too-old', 'writer', todayStart - 29 * DAY_MS - 1, { inputTokens: 1000, outputTokens: 1000, costUsd: 99 });
  // 'gone' had a row and was deleted: its spend stays, its name is null.
  db.prepare(`INSERT INTO agents (id, name, status, runtime, role, is_archived, created_at, updated_at) VALUES ('gone', 'Gone', 'idle', 'gateway', 'member', 0, 0, 0)`).run();
  assert.equal((await app.inject({ method: 'DELETE', url: '/api/agents/gone' })).statusCode, 200);
  assert.equal(count(db, 'cost_records'), 5);

  const res = await app.inject('/api/cost-records/summary');
  assert.equal(res.statusCode, 200, res.body);
  const s = res.json<Summary>();
  assert.equal(s.since, todayStart - 29 * DAY_MS);
  assert.equal(s.until, todayStart + DAY_MS);

  const expectedCost = a.costUsd + b.costUsd + 0.25 + 1;
  assert.ok(Math.abs(s.totals.costUsd - expectedCost) < 1e-9, `${s.totals.costUsd} vs ${expectedCost}`);
  assert.deepEqual({ ...s.totals, costUsd: 0 }, { costUsd: 0, inputTokens: 1_000_000 + 100 + 7 + 1, outputTokens: 100_000 + 200 + 3 + 1, records: 4 });

  // Highest spend first; names joined from agents.
  assert.deepEqual(s.byAgent.map((x) => [x.agentId, x.name, x.records]), [
    ['writer', 'Writer', 2],
    ['gone', null, 1],
    ['temp', 'temp', 1],
  ]);
  const writer = s.byAgent[0];
  assert.ok(writer && Math.abs(writer.costUsd - (a.costUsd + 0.25)) < 1e-9);
  assert.equal(writer?.inputTokens, 1_000_000 + 7);

  assert.equal(s.daily.length, 30);
  assert.deepEqual(s.daily.map((d) => d.date), Array.from({ length: 30 }, (_, i) => utcDay(todayStart - (29 - i) * DAY_MS)));
  const byDate = new Map(s.daily.map((d) => [d.date, d]));
  assert.equal(byDate.get(utcDay(now))?.records, 2);
  assert.equal(byDate.get(utcDay(todayStart - 5 * DAY_MS))?.records, 1);
  assert.equal(byDate.get(utcDay(todayStart - 5 * DAY_MS))?.costUsd, 0.25);
  assert.deepEqual(s.daily[0], { date: utcDay(todayStart - 29 * DAY_MS), costUsd: 1, inputTokens: 1, outputTokens: 1, records: 1 });
  assert.equal(s.daily.filter((d) => d.records > 0).length, 3, 'every other day is zero-filled');
  const seriesSum = s.daily.reduce((n, d) => n + d.records, 0);
  assert.equal(seriesSum, s.totals.records, 'the series and the totals cover the same window');
});
