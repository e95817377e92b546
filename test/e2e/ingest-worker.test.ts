// POST /api/obs/ingest on a real child server, with the ingest worker writing
// (issue 15 #13, #15, #17): the worker masks the exact gateway token it is
// sent with each batch, refuses a batch with an oversized row, and honours
// idempotency keys. The worker's counters prove the batches went through it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ingestWorkerStats, startServer, stopAfter, untilIngestWorkerServes } from '../helpers/server.ts';

const TOKEN = 'zq7Xw2Lp9Rt4Kv8NgatewayPlain';

void test('Security (issue 15 #13, #15, #17): through the ingest worker, exact secrets are masked, a row over 64 KB is 413, a keyed retry is stored once', async (t) => {
  const s = stopAfter(t, await startServer());
  const ingestStats = () => ingestWorkerStats(s.base);
  // The worker takes batches once it serves its channel (its counters answer from then on).
  await untilIngestWorkerServes(s.base);

  const json = { 'content-type': 'application/json' };
  const saved = await fetch(`${s.base}/api/settings`, { method: 'POST', headers: json, body: JSON.stringify({ gatewayToken: TOKEN }) });
  assert.equal(saved.status, 200);
  const post = (events: unknown[], headers: Record<string, string> = {}) =>
    fetch(`${s.base}/api/obs/ingest`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify({ events }) });

  const batch = [{ kind: 'tool_call', traceId: 'w', data: { cmd: `run ${TOKEN}`, args: [TOKEN] } }, { kind: 'error', traceId: 'w', data: { n: 1 } }];
  const first = await post(batch, { 'Idempotency-Key': 'retry-me' });
  assert.equal(first.status, 200);
  assert.deepEqual(await first.json(), { ok: true, count: 2 });
  const retry = await post(batch, { 'Idempotency-Key': 'retry-me' });
  assert.deepEqual(await retry.json(), { ok: true, count: 2 });
  const reused = await post([{ kind: 'error' }], { 'Idempotency-Key': 'retry-me' });
  assert.equal(reused.status, 422);

  const big = await post([{ kind: 'tool_call', data: { n: 1 } }, { kind: 'tool_result', data: { blob: 'y'.repeat(70_000) } }]);
  assert.equal(big.status, 413);
  assert.match(((await big.json()) as { error: string }).error, /larger than 64 KB \(65536 bytes\)/);

  const stats = await ingestStats();
  assert.deepEqual(stats, { batches: 1, events: 2, badBodies: 1, calls: 0 }, 'the worker wrote the batch once and refused the big one');

  const db = new Database(join(s.home, 'svc.db'), { readonly: true });
  t.after(() => db.close());
  const rows = db.prepare('SELECT data FROM events ORDER BY seq').pluck().all() as string[];
  assert.equal(rows.length, 2, 'the retry and the refused batch stored nothing');
  for (const data of rows) assert.ok(!data.includes(TOKEN), data);
  assert.deepEqual(JSON.parse(rows[0] ?? ''), { cmd: 'run ••••', args: ['••••'] });
  assert.deepEqual(db.prepare('SELECT key, count FROM ingest_keys').all(), [{ key: 'retry-me', count: 2 }]);
});
