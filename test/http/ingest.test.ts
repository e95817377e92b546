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
