// Spec "POST /api/obs/ingest" through the real app and database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';

void test('POST /api/obs/ingest: only the three client kinds are stored, masked, with defaults', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const now = Date.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/obs/ingest',
    payload: {
      events: [
        { kind: 'tool_call', agentId: 'a1', data: { tool: 'echo', apiKey: 'sk-abcdefghijklmnopqrstuv', tokens: 42 } },
        { kind: 'task_created', data: {} },
        { kind: 'error', ts: now - 48 * 3600_000, data: 'not an object' },
        'garbage',
        { kind: 'tool_result', teamId: 7 },
        { kind: 'tool_result', runtime: 'cli-a', ts: now - 1000 },
      ],
    },
  });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true, count: 3 });
  const rows = runtime.deps.db.prepare('SELECT kind, ts, runtime, agent_id AS agentId, data FROM events ORDER BY seq').all() as Array<{ kind: string; ts: number; runtime: string; agentId: string | null; data: string }>;
  assert.deepEqual(rows.map((r) => r.kind), ['tool_call', 'error', 'tool_result']);
  assert.equal(rows[0]?.runtime, 'gateway');
  assert.deepEqual(JSON.parse(rows[0]?.data ?? ''), { tool: 'echo', apiKey: '••••', tokens: 42 });
  assert.ok((rows[1]?.ts ?? 0) >= now, 'a ts older than 24 h is replaced by server time');
  assert.equal(rows[1]?.data, '{}');
  assert.equal(rows[2]?.runtime, 'cli-a');
  assert.equal(rows[2]?.ts, now - 1000);
});

void test('POST /api/obs/ingest: at most 200 events per call; a non-array is empty', async (t) => {
  const { app } = await buildTestApp(t);
  const events = Array.from({ length: 250 }, (_, i) => ({ kind: 'tool_call', data: { i } }));
  const res = await app.inject({ method: 'POST', url: '/api/obs/ingest', payload: { events } });
  assert.deepEqual(res.json(), { ok: true, count: 200 });
  const none = await app.inject({ method: 'POST', url: '/api/obs/ingest', payload: { events: 'x' } });
  assert.deepEqual(none.json(), { ok: true, count: 0 });
});

const post = (app: Awaited<ReturnType<typeof buildTestApp>>['app'], payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/obs/ingest', payload: payload as Record<string, unknown>, headers });
const storedData = (runtime: Awaited<ReturnType<typeof buildTestApp>>['runtime']) =>
  (runtime.deps.db.prepare('SELECT data FROM events ORDER BY seq').pluck().all() as string[]);

void test('Security (issue 15 #13): ingested data holding the exact gateway token in a plain field is stored without it (in-thread)', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const token = 'zq7Xw2Lp9Rt4Kv8NgatewayPlain';
  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayToken: token } });
  const res = await post(app, { events: [{ kind: 'tool_call', data: { cmd: `curl -H x:${token}`, list: [token] } }] });
  assert.deepEqual(res.json(), { ok: true, count: 1 });
  const [data] = storedData(runtime);
  assert.ok(data !== undefined && !data.includes(token), data);
  assert.deepEqual(JSON.parse(data), { cmd: 'curl -H x:••••', list: ['••••'] });
});

void test('Limits (issue 15 #15): a row whose data is over 64 KB serialized refuses the batch with 413 and stores nothing of it', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  // '{"s":"…"}' is 8 bytes plus the string: exactly 65536 bytes is allowed.
  const atLimit = { kind: 'tool_result', data: { s: 'x'.repeat(65536 - 8) } };
  const over = { kind: 'tool_result', data: { s: 'x'.repeat(65536 - 7) } };
  const ok = await post(app, { events: [atLimit] });
  assert.deepEqual(ok.json(), { ok: true, count: 1 });
  const res = await post(app, { events: [{ kind: 'tool_call', data: { n: 1 } }, over, { kind: 'error', data: {} }] });
  assert.equal(res.statusCode, 413);
  assert.deepEqual(res.json(), { error: "an event's data is larger than 64 KB (65536 bytes) serialized: nothing of this batch was stored" });
  assert.equal(storedData(runtime).length, 1, 'only the earlier batch is stored');
  // Multi-byte characters count as bytes: 21846 three-byte characters are over 64 KB.
  const wide = await post(app, { events: [{ kind: 'tool_call', data: { s: '€'.repeat(21846) } }] });
  assert.equal(wide.statusCode, 413);
  assert.equal(storedData(runtime).length, 1);
});

void test('POST /api/obs/ingest (issue 15 #17): a batch retried with the same Idempotency-Key is stored once and gets the first answer', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const batch = { events: [{ kind: 'tool_call', data: { n: 1 } }, { kind: 'task_created' }, { kind: 'error', data: { n: 2 } }] };
  const first = await post(app, batch, { 'idempotency-key': 'batch-0001' });
  assert.deepEqual(first.json(), { ok: true, count: 2 });
  const again = await post(app, batch, { 'idempotency-key': 'batch-0001' });
  assert.equal(again.statusCode, 200);
  assert.deepEqual(again.json(), { ok: true, count: 2 });
  assert.equal(storedData(runtime).length, 2, 'the retry stored nothing');
  // The same key with another batch: refused, nothing stored.
  const other = await post(app, { events: [{ kind: 'error', data: { n: 3 } }] }, { 'idempotency-key': 'batch-0001' });
  assert.equal(other.statusCode, 422);
  assert.deepEqual(other.json(), { error: 'Idempotency-Key was already used for a different batch (keys are kept 24 hours)' });
  // Another key, or none, is a new batch.
  assert.deepEqual((await post(app, batch, { 'idempotency-key': 'batch-0002' })).json(), { ok: true, count: 2 });
  assert.deepEqual((await post(app, batch)).json(), { ok: true, count: 2 });
  assert.equal(storedData(runtime).length, 6);
  // The key sits in the same database, recorded with its answer.
  assert.deepEqual(runtime.deps.db.prepare('SELECT key, count FROM ingest_keys ORDER BY key').all(), [
    { key: 'batch-0001', count: 2 },
    { key: 'batch-0002', count: 2 },
  ]);
});

void test('POST /api/obs/ingest (issue 15 #17): a malformed Idempotency-Key is refused with 400 and nothing is stored', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const batch = { events: [{ kind: 'tool_call', data: {} }] };
  for (const key of ['', 'k'.repeat(201), 'clé', 'tab\there']) {
    const res = await post(app, batch, { 'idempotency-key': key });
    assert.equal(res.statusCode, 400, JSON.stringify(key));
    assert.deepEqual(res.json(), { error: 'Idempotency-Key must be 1 to 200 printable ASCII characters' });
  }
  assert.equal(storedData(runtime).length, 0);
  assert.deepEqual((await post(app, batch, { 'idempotency-key': 'k'.repeat(200) })).json(), { ok: true, count: 1 });
  assert.deepEqual((await post(app, batch, { 'idempotency-key': 'a key with spaces ~!' })).json(), { ok: true, count: 1 });
});
