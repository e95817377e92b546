// Issue 17 #1-#5: the team-chat host over a real SQLite file, with no
// gateway at all (none is configured, so every send finds the connection
// down) and an injected clock. What needs a gateway that answers is proved
// by the end-to-end tests on the real gateway.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createDomain, type Domain } from '../../shared/domain.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createLogger } from '../../shared/log.ts';
import { readyDelegations } from '../../shared/team-chat/routing/delegations.ts';
import { createExecutions, type Execution } from '../../shared/team-chat/runs/executions.ts';
import { createTeamChatHost, type TeamChatHost } from '../../shared/team-chat/host.ts';
import { NO_AGENT_TEXT } from '../../shared/team-chat/orchestrator.ts';
import { INTERRUPTED } from '../../shared/team-chat/recovery.ts';
import { teamFallbackSessionKey, teamSessionKey } from '../../shared/team-chat/schemas.ts';
import { loadRoster } from '../../shared/team-chat/routing/answerer.ts';
import { waitFor } from '../helpers/wait.ts';

interface Emitted {
  event: string;
  payload: Record<string, unknown>;
}

interface Fixture {
  db: Db;
  domain: Domain;
  emitted: Emitted[];
  logs: string[];
  clock: { t: number };
  host(opts?: { turnBound?: number; idleMs?: number; reconnectWaitMs?: number }): TeamChatHost;
  entries(sessionKey: string): Array<Record<string, unknown>>;
  executions(): Execution[];
  events(kind: string): Array<{ teamId: string | null; agentId: string | null; taskId: string | null; traceId: string | null; spanId: string | null; correlationId: string | null; data: Record<string, unknown> }>;
}

function fixture(t: TestContext): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'svc-team-chat-'));
  const db = openDatabase(join(dir, 'svc.db'));
  const logs: string[] = [];
  const logger = createLogger({ level: 'warn' }, { write: (s: string) => void logs.push(s) });
  const tx = createTx(db, (err) => logger.error({ err }, 'hook'));
  const clock = { t: 1_800_000_000_000 };
  const now = () => clock.t;
  const domain = createDomain({ db, tx, settingsTable: createSettingsTable(db, now), eventLog: createEventLog({ db, tx, logger, now }), logger, now });
  const emitted: Emitted[] = [];
  const hosts: TeamChatHost[] = [];
  t.after(async () => {
    for (const h of hosts) await h.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    db,
    domain,
    emitted,
    logs,
    clock,
    host(opts = {}) {
      const h = createTeamChatHost({
        db,
        logger,
        identity: () => {
          throw new Error('no gateway is configured in these tests');
        },
        version: 'test',
        turnBound: opts.turnBound ?? 8,
        idleMs: opts.idleMs ?? 30 * 60_000,
        runTimeoutMs: 60_000,
        emit: (event, payload) => void emitted.push({ event, payload: payload as Record<string, unknown> }),
        now,
        reconnectWaitMs: opts.reconnectWaitMs ?? 5,
      });
      hosts.push(h);
      return h;
    },
    entries: (sessionKey) =>
      (db.prepare('SELECT entry FROM chat_messages WHERE session_key = ? ORDER BY id').pluck().all(sessionKey) as string[]).map(
        (e) => JSON.parse(e) as Record<string, unknown>,
      ),
    executions: () => db.prepare('SELECT id FROM executions ORDER BY started_at, id').pluck().all().map((id) => createExecutions(db).get(id as string) as Execution),
    events: (kind) =>
      (db.prepare('SELECT team_id AS teamId, agent_id AS agentId, task_id AS taskId, trace_id AS traceId, span_id AS spanId, correlation_id AS correlationId, data FROM events WHERE kind = ? ORDER BY seq').all(kind) as Array<{ data: string }>).map(
        (r) => ({ ...(r as unknown as { teamId: string | null; agentId: string | null; taskId: string | null; traceId: string | null; spanId: string | null; correlationId: string | null }), data: JSON.parse(r.data) as Record<string, unknown> }),
      ),
  };
}

function team(f: Fixture, members: Array<{ id: string; name: string }>, leaderAgentId: string | null = null): string {
  const id = f.domain.teams.create({ name: 'Blue', icon: 'x', color: 'blue', leaderAgentId }).id;
  for (const m of members) f.domain.agents.create({ ...m, teamId: id });
  return id;
}

const idle = (h: TeamChatHost) => waitFor(() => {
  const s = h.stats();
  return s.running === 0 && s.queued === 0;
}, { what: 'the host to have nothing running or queued' });

const statuses = (f: Fixture, agentId: string) =>
  f.emitted.filter((e) => e.event === 'status' && e.payload.agentId === agentId).map((e) => e.payload.status);

void test('Team chat (issue 17 #2): the effective lead is the team leader when live, else the global lead, else the oldest member', (t) => {
  const f = fixture(t);
  const teamId = team(f, [{ id: 'a-old', name: 'Old' }], 'boss');
  f.clock.t += 1;
  f.domain.agents.create({ id: '0-new', name: 'New', teamId });
  assert.equal(loadRoster(f.domain, teamId).lead?.id, 'a-old', 'a leader that does not exist: the oldest member');
  f.domain.agents.create({ id: 'boss', name: 'Boss' });
  assert.equal(loadRoster(f.domain, teamId).lead?.id, 'boss');
  f.domain.agents.update('boss', { isArchived: 1 });
  f.domain.agents.create({ id: 'glob', name: 'Global', role: 'lead' });
  assert.equal(loadRoster(f.domain, teamId).lead?.id, 'glob', 'an archived leader: the global lead');
});

void test('Team chat (issue 17 #2): no agent at all: the user entry and a meta entry under the team key, nothing sent', async (t) => {
  const f = fixture(t);
  const host = f.host();
  const teamId = team(f, []);
  const r = host.ingest({ teamId, message: '@Bob hello', entryId: 'e-1' });
  assert.deepEqual(r, { agentId: null, sessionKey: teamFallbackSessionKey(teamId), entryId: 'e-1' });
  const rows = f.entries(teamFallbackSessionKey(teamId));
  assert.deepEqual(rows.map((e) => [e.role, e.kind, e.text]), [['user', 'user', '@Bob hello'], ['system', 'meta', NO_AGENT_TEXT]]);
  assert.equal(f.executions().length, 0);
  assert.equal(host.stats().runs, 0);
});

void test('Team chat (issue 17 #3): a send to a down gateway is retried once, then a system/meta entry; the run ends error', async (t) => {
  const f = fixture(t);
  const host = f.host();
  const teamId = team(f, [{ id: 'bob', name: 'Bob' }]);
  const r = host.ingest({ teamId, message: '  hello team' });
  assert.equal(r.agentId, 'bob');
  assert.equal(r.sessionKey, teamSessionKey('bob', teamId));
  assert.match(r.entryId, /^user-[0-9a-f-]{36}$/);
  await waitFor(() => statuses(f, 'bob').includes('error'), { what: 'the run to end in error' });
  const rows = f.entries(r.sessionKey);
  assert.deepEqual(rows.map((e) => [e.role, e.kind, e.source, e.entryId === r.entryId]), [
    ['user', 'user', 'local-send', true],
    ['system', 'meta', 'team-chat', false],
  ]);
  assert.equal(rows[1]?.text, 'Could not deliver to Bob: gateway not connected');
  assert.equal(rows[0]?.confirmed, true);
  const [x] = f.executions();
  assert.equal(x?.status, 'error');
  assert.equal(x?.trigger, 'user');
  assert.equal(x?.chainId, r.entryId);
  assert.match(x?.traceId ?? '', /^[0-9a-f]{32}$/);
  assert.match(x?.spanId ?? '', /^[0-9a-f]{16}$/);
  for (const kind of ['execution_started', 'execution_completed', 'error']) {
    const [e] = f.events(kind);
    assert.equal(e?.traceId, x?.traceId, kind);
    assert.equal(e?.correlationId, r.entryId, kind);
    assert.equal(e?.agentId, 'bob', kind);
  }
  assert.deepEqual(statuses(f, 'bob'), ['running', 'error']);
  assert.equal(f.domain.agents.get('bob')?.status, 'error');
  assert.equal(f.logs.filter((l) => l.includes('retry once')).length, 1, 'one retry');
  // Every row the host committed was handed out at commit time.
  const committedChat = f.emitted.filter((e) => e.event === 'committed').flatMap((e) => e.payload.chat as unknown[]);
  assert.equal(committedChat.length, 2);
});

void test('Team chat (issue 17 #2): a repeated entryId writes nothing new and queues nothing new', async (t) => {
  const f = fixture(t);
  const host = f.host();
  const teamId = team(f, [{ id: 'bob', name: 'Bob' }]);
  host.ingest({ teamId, message: 'hi', entryId: 'same' });
  await idle(host);
  const again = host.ingest({ teamId, message: 'hi', entryId: 'same' });
  assert.equal(again.entryId, 'same');
  assert.equal(f.entries(teamSessionKey('bob', teamId)).filter((e) => e.role === 'user').length, 1);
  assert.equal(f.executions().length, 1);
  assert.equal(host.stats().queued + host.stats().running, 0);
});

void test('Team chat (issue 17 #4): ready delegations are todo tasks of the team, created by an agent, assigned to a roster agent, with no open blocker, never delivered', (t) => {
  const f = fixture(t);
  const teamId = team(f, [{ id: 'bob', name: 'Bob' }]);
  const { board } = f.domain;
  const mk = (title: string, assigneeAgentId: string | null, dependsOn: string[] = []) =>
    board.create({ title, teamId, assigneeAgentId, dependsOn, createdByAgentId: 'bob' }).id;
  const ready = mk('ready', 'bob');
  board.create({ title: 'a person made it', teamId, assigneeAgentId: 'bob' });
  mk('stranger', 'stranger');
  mk('nobody', null);
  const open = mk('open blocker', 'bob');
  mk('waits for open', 'bob', [open]);
  const done = mk('done blocker', 'bob');
  board.update(done, { status: 'in_progress' });
  board.update(done, { status: 'done' });
  const unblocked = mk('waits for done', 'bob', [done]);
  const delivered = mk('delivered once', 'bob');
  board.create({ title: 'other team', teamId: null, assigneeAgentId: 'bob' });
  const executions = createExecutions(f.db);
  executions.insertCancelled(
    { id: 'x1', teamId, agentId: 'bob', sessionKey: 'k', taskId: delivered, trigger: 'delegation', chainId: 'c', traceId: 't', spanId: 's', parentSpanId: null, startedAt: 1 },
    1,
  );
  const picked = readyDelegations(board, executions, teamId, new Set(['bob']), new Set()).map((x) => x.title);
  assert.deepEqual(picked.sort(), ['open blocker', 'ready', 'waits for done'].sort());
  assert.ok(!picked.includes('stranger') && !picked.includes('waits for open') && !picked.includes('delivered once') && !picked.includes('a person made it'));
  assert.deepEqual(readyDelegations(board, executions, teamId, new Set(['bob']), new Set([ready, open, unblocked])), []);
});

void test('Team chat (issue 17 #4): the turn bound drops the delivery that would exceed it, with turn_bound_hit events and one meta entry', async (t) => {
  const f = fixture(t);
  const host = f.host({ turnBound: 2 });
  const teamId = team(f, [{ id: 'lea', name: 'Lea' }, { id: 'bob', name: 'Bob' }], 'lea');
  const r = host.ingest({ teamId, message: 'plan the work' });
  assert.equal(r.agentId, 'lea');
  await idle(host);
  const tasks = ['one', 'two', 'three'].map((title) => f.domain.board.create({ title, teamId, assigneeAgentId: 'bob', createdByAgentId: 'lea' }).id);
  host.boardChanged({ teamId, taskId: tasks[0] as string });
  await idle(host);
  const hits = f.events('turn_bound_hit');
  assert.deepEqual(hits.map((h) => h.data), [
    { chainId: r.entryId, bound: 2, dropped: { agentId: 'bob', trigger: 'delegation' } },
    { chainId: r.entryId, bound: 2, dropped: { agentId: 'bob', trigger: 'delegation' } },
  ]);
  const notes = f.entries(teamSessionKey('lea', teamId)).filter((e) => String(e.text).startsWith('Turn bound reached'));
  assert.equal(notes.length, 1);
  // The one delivered task ran in the user's chain (and failed: no gateway), the others stay todo.
  const byTask = new Map(f.executions().filter((x) => x.taskId).map((x) => [x.taskId, x]));
  assert.equal(byTask.get(tasks[0] as string)?.chainId, r.entryId);
  assert.equal(f.domain.board.get(tasks[0] as string)?.status, 'blocked');
  assert.match(f.domain.board.comments(tasks[0] as string)[0]?.body ?? '', /^Run failed: gateway not connected/);
  assert.deepEqual([f.domain.board.get(tasks[1] as string)?.status, f.domain.board.get(tasks[2] as string)?.status], ['todo', 'todo']);
  const [sel] = f.events('speaker_selected');
  assert.deepEqual(sel?.data, { from: 'lea', to: 'bob', reason: 'task: one', trigger: 'delegation' });
});

void test('Team chat (issue 17 #1): recovery closes executions left running: error rows, events, meta entries, agent status', (t) => {
  const f = fixture(t);
  const teamId = team(f, [{ id: 'bob', name: 'Bob' }]);
  const executions = createExecutions(f.db);
  const sessionKey = teamSessionKey('bob', teamId);
  executions.start({ id: 'run-a', teamId, agentId: 'bob', sessionKey, taskId: null, trigger: 'user', chainId: 'chain-a', traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), parentSpanId: null, startedAt: 5 });
  executions.setRunId('run-a', 'gw-run-1');
  f.domain.agents.setStatus('bob', 'running');
  f.host();
  const x = executions.get('run-a');
  assert.equal(x?.status, 'error');
  assert.equal(x?.error, INTERRUPTED);
  assert.equal(x?.endedAt, f.clock.t);
  assert.deepEqual(f.events('execution_completed').map((e) => [e.traceId, e.spanId, e.correlationId, e.data.status]), [['a'.repeat(32), 'b'.repeat(16), 'chain-a', 'error']]);
  assert.deepEqual(f.events('error').map((e) => e.data.message), [INTERRUPTED]);
  assert.deepEqual(f.entries(sessionKey).map((e) => [e.role, e.kind, e.text]), [['system', 'meta', `Bob's run was ${INTERRUPTED}.`]]);
  assert.equal(f.domain.agents.get('bob')?.status, 'error');
  assert.deepEqual(statuses(f, 'bob'), ['error']);
  // A second start finds nothing left running.
  f.host();
  assert.equal(f.events('execution_completed').length, 1);
});

void test('Team chat (issue 17 #1): an orchestrator is evicted after idleMs on the injected clock, never while a run is in flight', async (t) => {
  const f = fixture(t);
  const host = f.host({ idleMs: 1000, reconnectWaitMs: 60 * 60_000 });
  const empty = team(f, []);
  host.ingest({ teamId: empty, message: 'anyone?' });
  assert.equal(host.stats().orchestrators, 1);
  f.clock.t += 999;
  assert.equal(host.stats().orchestrators, 1);
  f.clock.t += 1;
  assert.equal(host.stats().orchestrators, 0);

  const teamId = team(f, [{ id: 'bob', name: 'Bob' }]);
  host.ingest({ teamId, message: 'hello' }); // waits for a gateway that never comes
  f.clock.t += 10_000;
  assert.deepEqual(host.stats(), { orchestrators: 1, running: 1, queued: 0, runs: 1 });
  assert.deepEqual(await host.stop({ teamId }), { aborted: 1, released: 0, dropped: 0, cancelled: 1 });
  await idle(host);
  assert.equal(f.executions()[0]?.status, 'cancelled');
  assert.deepEqual(statuses(f, 'bob'), ['running', 'idle']);
  assert.equal(host.stats().orchestrators, 1, 'the stop itself counts as activity');
  f.clock.t += 1000;
  assert.deepEqual(host.stats(), { orchestrators: 0, running: 0, queued: 0, runs: 1 });
});

void test('Team chat (issue 17 #5): stop on an unknown, idle or evicted team answers zeros and creates nothing', async (t) => {
  const f = fixture(t);
  const host = f.host({ idleMs: 1000 });
  assert.deepEqual(await host.stop({ teamId: 'no-such-team' }), { aborted: 0, released: 0, dropped: 0, cancelled: 0 });
  const teamId = team(f, []);
  host.ingest({ teamId, message: 'hi' });
  assert.deepEqual(await host.stop({ teamId }), { aborted: 0, released: 0, dropped: 0, cancelled: 0 });
  f.clock.t += 1000;
  assert.deepEqual(await host.stop({ teamId }), { aborted: 0, released: 0, dropped: 0, cancelled: 0 });
  assert.equal(host.stats().orchestrators, 0);
  assert.equal(f.executions().length, 0);
});

void test('Team chat (issue 17 #5): stop aborts the run, drops the queued delegation with a cancelled row, releases both tasks; they are not delivered again', async (t) => {
  const f = fixture(t);
  const host = f.host({ reconnectWaitMs: 60 * 60_000 });
  const teamId = team(f, [{ id: 'lea', name: 'Lea' }, { id: 'bob', name: 'Bob' }], 'lea');
  const a = f.domain.board.create({ title: 'first', teamId, assigneeAgentId: 'bob', createdByAgentId: 'lea' }).id;
  const b = f.domain.board.create({ title: 'second', teamId, assigneeAgentId: 'bob', createdByAgentId: 'lea' }).id;
  host.boardChanged({ teamId, taskId: b });
  assert.deepEqual([f.domain.board.get(a)?.status, f.domain.board.get(b)?.status], ['in_progress', 'in_progress']);
  assert.deepEqual(host.stats(), { orchestrators: 1, running: 1, queued: 1, runs: 1 });
  assert.deepEqual(await host.stop({ teamId }), { aborted: 1, released: 2, dropped: 1, cancelled: 2 });
  await idle(host);
  assert.deepEqual([f.domain.board.get(a)?.status, f.domain.board.get(b)?.status], ['todo', 'todo']);
  assert.deepEqual(f.executions().map((x) => [x.taskId, x.status, x.runId]).sort(), [[a, 'cancelled', null], [b, 'cancelled', null]].sort());
  host.boardChanged({ teamId, taskId: a });
  assert.equal(host.stats().running + host.stats().queued, 0, 'released tasks are not delivered again by themselves');
  assert.equal(f.executions().length, 2);
});
