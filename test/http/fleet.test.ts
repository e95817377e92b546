// Spec "Smaller resources" → "Fleet summary": GET /api/fleet/summary, a
// read-only join of live agents per runtime, adapter class and health (the
// gateway always present, its health from svc's connection), 24-hour board
// task and verification rollups and governance budget counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { ConnectionStatus } from '../../shared/gateway/connection.ts';
import type { FleetSummary } from '../../shared/fleet/index.ts';
import { buildTestApp } from '../helpers/app.ts';

const S = 'Smaller resources → Fleet summary';
const HOUR_MS = 3_600_000;

async function summary(app: FastifyInstance): Promise<FleetSummary> {
  const res = await app.inject('/api/fleet/summary');
  assert.equal(res.statusCode, 200, res.body);
  return res.json<FleetSummary>();
}

async function createAgent(app: FastifyInstance, body: Record<string, unknown>): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/api/agents', payload: body });
  assert.equal(res.statusCode, 200, res.body);
}

async function createTask(app: FastifyInstance, body: Record<string, unknown>): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/tasks', payload: body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ task: { id: string } }>().task.id;
}

async function move(app: FastifyInstance, id: string, status: string): Promise<void> {
  const res = await app.inject({ method: 'PATCH', url: `/api/tasks/${id}`, payload: { status } });
  assert.equal(res.statusCode, 200, res.body);
}

void test(`${S}: an empty fleet still lists the gateway runtime, with health from the (unconnected) gateway link`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const s = await summary(app);
  assert.deepEqual(Object.keys(s).sort(), ['agents', 'board', 'budgets', 'generatedAt', 'runtimes']);
  assert.deepEqual(s.agents, { total: 0, byStatus: {} });
  assert.equal(s.runtimes.length, 1);
  const gw = s.runtimes[0];
  const conn = runtime.deps.gatewayLink.status();
  assert.notEqual(conn.state, 'connected', 'tests run without a gateway');
  assert.deepEqual(gw, {
    runtime: 'gateway',
    adapter: 'connected-substrate',
    agents: { total: 0, byStatus: {} },
    health: { ok: false, state: conn.state, connectedAt: null, lastError: conn.lastError?.code ?? null, failures: conn.failures },
  });
  assert.deepEqual(s.board, { windowHours: 24, since: s.board.since, created: 0, completed: 0, byStatus: {}, verifications: { total: 0, passed: 0, rejected: 0, cancelled: 0 } });
  assert.equal(s.board.since, s.generatedAt - 24 * HOUR_MS);
  assert.deepEqual(s.budgets, { available: true, total: 0, byStatus: { active: 0, paused: 0, soft_capped: 0 } });
});

void test(`${S}: live agents are counted per runtime (open set) with a status breakdown; archived agents are not`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await createAgent(app, { id: 'g1', name: 'G1' });
  await createAgent(app, { id: 'g2', name: 'G2', runtime: 'gateway' });
  await createAgent(app, { id: 'n1', name: 'N1', runtime: 'native' });
  await createAgent(app, { id: 'c1', name: 'C1', runtime: 'cli-a' });
  await createAgent(app, { id: 'c2', name: 'C2', runtime: 'cli-b' });
  await createAgent(app, { id: 'h1', name: 'H1', runtime: 'hermes' });
  await createAgent(app, { id: 'h2', name: 'H2', runtime: 'hermes' });
  await createAgent(app, { id: 'old', name: 'Old', runtime: 'retired-rt' });
  const db = runtime.deps.db;
  db.prepare(`UPDATE agents SET status = 'running' WHERE id IN ('g2', 'h1')`).run();
  db.prepare(`UPDATE agents SET status = 'error' WHERE id = 'h2'`).run();
  const archived = await app.inject({ method: 'PATCH', url: '/api/agents/old', payload: { isArchived: true } });
  assert.equal(archived.statusCode, 200, archived.body);

  const s = await summary(app);
  assert.deepEqual(s.agents, { total: 7, byStatus: { idle: 4, running: 2, error: 1 } });
  assert.deepEqual(
    s.runtimes.map((r) => [r.runtime, r.adapter, r.agents]),
    [
      ['gateway', 'connected-substrate', { total: 2, byStatus: { idle: 1, running: 1 } }],
      ['cli-a', 'cli', { total: 1, byStatus: { idle: 1 } }],
      ['cli-b', 'cli', { total: 1, byStatus: { idle: 1 } }],
      ['hermes', 'unregistered', { total: 2, byStatus: { error: 1, running: 1 } }],
      ['native', 'in-process', { total: 1, byStatus: { idle: 1 } }],
    ],
    'gateway first, then by id; the archived-only runtime is not listed',
  );
  for (const r of s.runtimes.filter((x) => x.runtime !== 'gateway')) {
    assert.deepEqual(r.health, { ok: null, state: 'not-reported', connectedAt: null, lastError: null, failures: 0 }, r.runtime);
  }
});

void test(`${S}: gateway health reflects the gateway link's state and never carries its URL, credentials or error message`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const link = runtime.deps.gatewayLink;
  const real = link.status.bind(link);
  t.after(() => {
    link.status = real;
  });
  const secretUrl = 'wss://operator:hunter2@gw.example:18789/?token=tok-SECRET';
  let status: ConnectionStatus = { state: 'connected', url: secretUrl, connectedAt: 1_700_000_000_000, lastError: null, failures: 0, serverVersion: '2026.5.1' };
  link.status = () => status;

  let res = await app.inject('/api/fleet/summary');
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json<FleetSummary>().runtimes[0]?.health, { ok: true, state: 'connected', connectedAt: 1_700_000_000_000, lastError: null, failures: 0 });
  for (const secret of ['hunter2', 'tok-SECRET', 'operator', 'gw.example']) assert.ok(!res.body.includes(secret), secret);

  status = { state: 'backoff', url: secretUrl, connectedAt: null, lastError: { code: 'AUTH_TOKEN_MISMATCH', message: `refused by ${secretUrl}` }, failures: 3, serverVersion: null };
  res = await app.inject('/api/fleet/summary');
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json<FleetSummary>().runtimes[0]?.health, { ok: false, state: 'backoff', connectedAt: null, lastError: 'AUTH_TOKEN_MISMATCH', failures: 3 });
  for (const secret of ['hunter2', 'tok-SECRET', 'operator', 'gw.example', 'refused by']) assert.ok(!res.body.includes(secret), secret);
});

void test(`${S}: the board rollup counts the last 24 hours only: created, completed, status and review verifications`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const db = runtime.deps.db;
  await createAgent(app, { id: 'coder', name: 'Coder' });

  // In the window, through the board: one verified to done, one rejected, one cancelled in review, one open.
  const passed = await createTask(app, { title: 'passes review', assigneeAgentId: 'coder' });
  for (const s of ['in_progress', 'in_review', 'done']) await move(app, passed, s);
  const rejected = await createTask(app, { title: 'sent back', assigneeAgentId: 'coder' });
  for (const s of ['in_progress', 'in_review', 'in_progress']) await move(app, rejected, s);
  const dropped = await createTask(app, { title: 'dropped in review', assigneeAgentId: 'coder' });
  for (const s of ['in_progress', 'in_review', 'cancelled']) await move(app, dropped, s);
  await createTask(app, { title: 'still todo' });
  // A field edit of a task in review is a status_changed from in_review to
  // in_review: not a verification.
  const reviewing = await createTask(app, { title: 'in review', assigneeAgentId: 'coder' });
  for (const s of ['in_progress', 'in_review']) await move(app, reviewing, s);
  const retitle = await app.inject({ method: 'PATCH', url: `/api/tasks/${reviewing}`, payload: { title: 'in review, renamed' } });
  assert.equal(retitle.statusCode, 200, retitle.body);

  // Outside the window, written directly: an old done task with its old review event.
  const old = Date.now() - 48 * HOUR_MS;
  db.prepare(
    `INSERT INTO tasks (id, title, status, created_at, updated_at, completed_at) VALUES ('old-done', 'old', 'done', @t, @t, @t)`,
  ).run({ t: old });
  db.prepare(
    `INSERT INTO events (id, ts, kind, task_id, data, created_at) VALUES ('old-ev', @t, 'status_changed', 'old-done', '{"from":"in_review","to":"done"}', @t)`,
  ).run({ t: old });
  // Created long ago but completed within the window: completed, not created.
  db.prepare(
    `INSERT INTO tasks (id, title, status, created_at, updated_at, completed_at) VALUES ('late-done', 'late', 'done', @old, @recent, @recent)`,
  ).run({ old, recent: Date.now() - HOUR_MS });
  // A malformed event blob is skipped, not a 500.
  db.prepare(`INSERT INTO events (id, ts, kind, data, created_at) VALUES ('bad-ev', @t, 'status_changed', 'not json', @t)`).run({ t: Date.now() });

  const s = await summary(app);
  assert.equal(s.board.windowHours, 24);
  assert.equal(s.board.created, 5);
  assert.equal(s.board.completed, 2, 'passed and late-done; cancelled is not completion');
  assert.deepEqual(s.board.byStatus, { done: 2, in_progress: 1, in_review: 1, cancelled: 1, todo: 1 });
  assert.deepEqual(s.board.verifications, { total: 3, passed: 1, rejected: 1, cancelled: 1 });
  assert.ok(s.board.since <= Date.now() - 24 * HOUR_MS + 1000 && s.board.since > old);
});

void test(`${S}: the summary only reads: a GET writes no row`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await createAgent(app, { id: 'a', name: 'A' });
  const db = runtime.deps.db;
  const counts = () => db.prepare(`SELECT (SELECT COUNT(*) FROM agents) AS agents, (SELECT COUNT(*) FROM tasks) AS tasks, (SELECT COUNT(*) FROM events) AS events`).get();
  const before = counts();
  await summary(app);
  await summary(app);
  assert.deepEqual(counts(), before);
});

void test(`${S}: a database failure is a redacted 500`, async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.db.exec('ALTER TABLE agents RENAME TO agents_moved');
  const res = await app.inject('/api/fleet/summary');
  assert.equal(res.statusCode, 500);
  assert.deepEqual(res.json(), { error: 'database error (SQLITE_ERROR)' });
});
