// Errors (issue 16 #1): one error path. The routes that used to catch and
// reply themselves (observability reads, eval smoke, health, ingest) now let
// a failure reach the one error handler (supervisor/http/plugins/errors.ts): a
// SQLite failure answers with its code only (no SQL, table or column name),
// in each route's spec envelope, and is logged with its stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_MESSAGES } from '../../shared/events/ingest-keys.ts';
import { buildApp } from '../../supervisor/http/app.ts';
import { badRequest, internalError } from '../../supervisor/http/http-error.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/** Text a masked body must not hold: the failing SQL, the tables it names, SQLite's detail. */
const SQL_TEXT = [/select/i, /insert/i, /no such table/i, /\bevents\b/, /events_moved/, /ingest_keys/, /eval_scores/, /boot_reports/];

function assertNoSql(body: string): void {
  for (const pattern of SQL_TEXT) assert.doesNotMatch(body, pattern, `the body quotes SQL: ${body}`);
}

interface LogLine {
  msg?: string;
  url?: string;
  err?: { type?: string; message?: string; stack?: string; code?: string };
}

/** The handler's log line for a failed request to `url`, parsed. */
function loggedFailure(logs: string[], url: string): LogLine | undefined {
  return logs.map((l) => JSON.parse(l) as LogLine).find((l) => l.url === url && l.err !== undefined);
}

/** The failure to `url` was logged with the SQLite error's own stack (the detail the body leaves out). */
function assertLoggedWithStack(logs: string[], url: string, detail: RegExp): void {
  const line = loggedFailure(logs, url);
  assert.ok(line, `no error logged for ${url}`);
  assert.equal(line.msg, 'unhandled error');
  assert.equal(line.err?.code, 'SQLITE_ERROR');
  assert.match(line.err?.stack ?? '', /SqliteError/);
  assert.match(line.err?.stack ?? '', detail, 'the log keeps what the body masks');
}

/** A real SQLite failure: a query against a table that does not exist, on the runtime's own connection. */
function sqliteThrows(t: TestApp, table: string): never {
  t.runtime.deps.db.prepare(`SELECT * FROM ${table}`).all();
  throw new Error('unreachable: the query above throws');
}

/** A second app over the same runtime with some of its deps replaced; closed after the test. */
async function appWith(tc: Parameters<typeof buildTestApp>[0], base: TestApp, deps: Partial<TestApp['runtime']['deps']>): Promise<FastifyInstance> {
  const app = buildApp({ ...base.runtime.deps, ...deps });
  tc.after(() => app.close());
  await app.ready();
  return app;
}

const OBS_READS = ['/api/obs/events?teamId=T&order=desc', '/api/obs/traces/trace-1', '/api/obs/errors?harnessBug=true', '/api/obs/health?teamId=T', '/api/obs/graph'];

void test('Errors (issue 16 #1): an observability read whose SQL fails answers 500 { error } with the SQLite code only, logged with its stack', async (t) => {
  const s = await buildTestApp(t);
  s.runtime.deps.db.exec('ALTER TABLE events RENAME TO events_moved');
  for (const url of OBS_READS) {
    const res = await s.app.inject(url);
    assert.equal(res.statusCode, 500, url);
    assert.deepEqual(res.json(), { error: 'database error (SQLITE_ERROR)' }, url);
    assertNoSql(res.body);
    assertLoggedWithStack(s.logs, url, /no such table: events/);
  }
});

void test('Errors (issue 16 #1): an ingest whose write fails answers the spec 400 { error } with the SQLite code only, logged with its stack', async (t) => {
  const s = await buildTestApp(t);
  s.runtime.deps.db.exec('ALTER TABLE events RENAME TO events_moved');
  const res = await s.app.inject({ method: 'POST', url: '/api/obs/ingest', payload: { events: [{ kind: 'tool_call', data: {} }] } });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'database error (SQLITE_ERROR)' });
  assertNoSql(res.body);
  assertLoggedWithStack(s.logs, '/api/obs/ingest', /no such table: (main\.)?events/);
  // The route's own refusals keep their statuses and messages.
  const headers = { [IDEMPOTENCY_KEY_HEADER]: 'k'.repeat(IDEMPOTENCY_KEY_MAX + 1) };
  const badKey = await s.app.inject({ method: 'POST', url: '/api/obs/ingest', payload: { events: [] }, headers });
  assert.equal(badKey.statusCode, 400);
  assert.deepEqual(badKey.json(), { error: IDEMPOTENCY_MESSAGES.badKey });
});

void test('Errors (issue 16 #1): an eval smoke whose trial hits a SQLite failure answers 500 { error } with the code only, logged with its stack', async (t) => {
  const s = await buildTestApp(t);
  const app = await appWith(t, s, {
    pool: { ...s.runtime.deps.pool, size: 2, evalTrial: () => Promise.resolve().then(() => sqliteThrows(s, 'eval_scores')) },
  });
  const res = await app.inject({ method: 'POST', url: '/api/eval/smoke', payload: { trials: 1 } });
  assert.equal(res.statusCode, 500);
  assert.deepEqual(res.json(), { error: 'database error (SQLITE_ERROR)' });
  assertNoSql(res.body);
  assertLoggedWithStack(s.logs, '/api/eval/smoke', /no such table: eval_scores/);
});

void test('Errors (issue 16 #1): a SQLite failure in a pool thread crosses back by its code only and is answered 500 without its detail', async (t) => {
  const s = await buildTestApp(t);
  // A temporary directory whose path is past SQLite's 512-byte limit: each
  // trial's mkdtemp works, then opening its database fails (SQLITE_CANTOPEN)
  // inside the real pool thread, which starts with this environment.
  const root = mkdtempSync(join(tmpdir(), 'svc-error-path-'));
  const deep = join(root, ...Array.from({ length: 6 }, () => 'x'.repeat(100)));
  mkdirSync(deep, { recursive: true });
  const before = process.env.TMPDIR;
  process.env.TMPDIR = deep;
  t.after(() => rmSync(root, { recursive: true, force: true }));
  let res;
  try {
    res = await s.app.inject({ method: 'POST', url: '/api/eval/smoke', payload: {} });
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
  assert.equal(res.statusCode, 500);
  assert.deepEqual(res.json(), { error: 'jobs.evalTrial: database error (SQLITE_CANTOPEN)' });
  assertNoSql(res.body);
  assert.match(loggedFailure(s.logs, '/api/eval/smoke')?.err?.stack ?? '', /JobError: jobs\.evalTrial: database error/, 'the failure is logged');
});

void test('Errors (issue 16 #1): a health report that fails on SQLite answers 500 { ok: false, error } with the code only, logged with its stack', async (t) => {
  const s = await buildTestApp(t);
  const failing = () => Promise.resolve().then(() => sqliteThrows(s, 'boot_reports'));
  const app = await appWith(t, s, { health: { get: failing, recheck: failing } });
  for (const [method, url] of [['GET', '/api/health'], ['POST', '/api/health/recheck']] as const) {
    const res = await app.inject({ method, url });
    assert.equal(res.statusCode, 500, url);
    assert.deepEqual(res.json(), { ok: false, error: 'database error (SQLITE_ERROR)' }, url);
    assertNoSql(res.body);
    assertLoggedWithStack(s.logs, url, /no such table: boot_reports/);
  }
});

void test('Errors (issue 16 #1): GET and POST /api/settings failures are the spec 500 messages from the one handler, logged with the cause', async (t) => {
  const s = await buildTestApp(t);
  const settings = s.runtime.deps.settings;
  const app = await appWith(t, s, {
    settings: { ...settings, view: () => sqliteThrows(s, 'settings_view'), save: () => sqliteThrows(s, 'settings_save') },
  });
  const read = await app.inject('/api/settings');
  assert.equal(read.statusCode, 500);
  assert.deepEqual(read.json(), { error: 'Failed to load settings' });
  assert.match(loggedFailure(s.logs, '/api/settings')?.err?.stack ?? '', /no such table: settings_view/);
  const save = await app.inject({ method: 'POST', url: '/api/settings', payload: { firstRunDismissedAt: 1 } });
  assert.equal(save.statusCode, 500);
  assert.deepEqual(save.json(), { error: 'Failed to save settings' });
  // Validation stays a 400 with its own message.
  const bad = await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: 'http://x' } });
  assert.equal(bad.statusCode, 400);
  assert.deepEqual(bad.json(), { error: 'gatewayUrl must be a ws:// or wss:// URL' });
});

void test('Errors (issue 16 #1): an internalError a route throws is logged with its cause; the body holds only its message', async (t) => {
  const s = await buildTestApp(t);
  // The gateway-host worker is not started in inject tests: the status call answers WORKER_UNAVAILABLE.
  const res = await s.app.inject('/api/system/status');
  assert.equal(res.statusCode, 500);
  assert.deepEqual(res.json(), { error: 'gateway-host worker is not running' });
  const line = loggedFailure(s.logs, '/api/system/status');
  assert.ok(line, 'the 500 is logged');
  assert.match(line.err?.stack ?? '', /HttpError: gateway-host worker is not running/);
});

void test('Errors (issue 16 #1): route config gives a route its spec envelope: fields on every error answer, extra fields and a fixed message on an unexpected throw', async (t) => {
  const cause = new Error('UNIQUE constraint failed: approvals.id');
  const s = await buildTestApp(t, {
    beforeReady: (a) => {
      // The shape of the spec's approvals-history routes: `{ ok: false, error }` always, GET's 500 also `records: []`.
      const errorReply = { fields: { ok: false }, unexpected: { fields: { records: [] } } };
      a.get('/api/test-envelope', { config: { errorReply } }, async (req) => {
        const q = req.query as { mode?: string };
        if (q.mode === 'refuse') throw badRequest('agentId is required');
        if (q.mode === 'internal') throw internalError('Failed to read approvals', {}, { cause });
        throw Object.assign(new Error('no such table: approvals'), { code: 'SQLITE_ERROR' });
      });
    },
  });
  const get = async (mode: string) => {
    const res = await s.app.inject(`/api/test-envelope?mode=${mode}`);
    return { status: res.statusCode, body: res.json<unknown>() };
  };
  assert.deepEqual(await get('refuse'), { status: 400, body: { ok: false, error: 'agentId is required' } });
  assert.deepEqual(await get('internal'), { status: 500, body: { ok: false, error: 'Failed to read approvals' } });
  assert.match(loggedFailure(s.logs, '/api/test-envelope?mode=internal')?.err?.stack ?? '', /UNIQUE constraint failed: approvals\.id/, 'the cause is logged');
  assert.deepEqual(await get('sqlite'), { status: 500, body: { ok: false, error: 'database error (SQLITE_ERROR)', records: [] } });
});
