// GET /api/obs/stream on a real socket: headers, `: connected`, id/data
// frames with masked data, resume with since and Last-Event-ID, scope
// filters, and rows written by another process on the same file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createLogger } from '../../shared/log.ts';
import { startServer, stopAfter } from '../helpers/server.ts';
import { openSse, type SseFrame } from '../helpers/http.ts';
import { waitFor } from '../helpers/wait.ts';

const ingest = (base: string, events: unknown[]) =>
  fetch(`${base}/api/obs/ingest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ events }) });

const rows = (frames: SseFrame[]) => frames.filter((f) => f.id !== undefined).map((f) => ({ id: Number(f.id), row: JSON.parse(f.data ?? '{}') }));

void test('GET /api/obs/stream: headers, connected comment, live frames, resume, filters, other writers', async (t) => {
  const s = stopAfter(t, await startServer({ env: { SVC_TAIL_INTERVAL_MS: '750' } }));

  const live = await openSse(`${s.base}/api/obs/stream`);
  t.after(() => live.close());
  assert.equal(live.res.status, 200);
  assert.equal(live.res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  assert.equal(live.res.headers.get('cache-control'), 'no-cache, no-transform');
  assert.equal(live.res.headers.get('x-accel-buffering'), 'no');
  await live.until((f) => f[0]?.comment === 'connected');

  const teamOnly = await openSse(`${s.base}/api/obs/stream?teamId=team-b`);
  t.after(() => teamOnly.close());
  await teamOnly.until((f) => f[0]?.comment === 'connected');

  // svc's own writes: delivered at commit time.
  assert.equal((await ingest(s.base, [
    { kind: 'tool_call', teamId: 'team-a', agentId: 'a1', data: { password: 'hunter2hunter2', n: 1 } },
    { kind: 'tool_result', teamId: 'team-b', agentId: 'a2', data: { n: 2 } },
  ])).status, 200);
  await live.until((f) => rows(f).length === 2);
  const got = rows(live.frames);
  assert.deepEqual(got.map((r) => r.id), [1, 2]);
  assert.equal(got[0]?.row.kind, 'tool_call');
  assert.equal(got[0]?.row.seq, 1);
  assert.deepEqual(JSON.parse(got[0]?.row.data), { password: '••••', n: 1 });
  await teamOnly.until((f) => rows(f).length === 1);
  assert.equal(rows(teamOnly.frames)[0]?.row.teamId, 'team-b');

  // Another process appends to the same file: the tail worker picks it up.
  const db = openDatabase(join(s.home, 'svc.db'));
  const log = createEventLog({ db, tx: createTx(db, () => undefined), logger: createLogger({ level: 'silent' }) });
  log.append({ kind: 'tool_call', teamId: 'team-b', data: { from: 'mcp-binary', token: 'abcd1234efgh' } });
  db.close();
  await live.until((f) => rows(f).length === 3);
  const third = rows(live.frames)[2];
  assert.equal(third?.id, 3);
  assert.deepEqual(JSON.parse(third?.row.data), { from: 'mcp-binary', token: '••••' });
  await teamOnly.until((f) => rows(f).length === 2);

  // Resume: `since` replays rows after the cursor; Last-Event-ID wins over since.
  const resumed = await openSse(`${s.base}/api/obs/stream?since=1`);
  t.after(() => resumed.close());
  await resumed.until((f) => rows(f).length === 2);
  assert.deepEqual(rows(resumed.frames).map((r) => r.id), [2, 3]);
  const byHeader = await openSse(`${s.base}/api/obs/stream?since=0`, { 'Last-Event-ID': '2' });
  t.after(() => byHeader.close());
  await byHeader.until((f) => rows(f).length === 1);
  assert.deepEqual(rows(byHeader.frames).map((r) => r.id), [3]);
  const negative = await openSse(`${s.base}/api/obs/stream?since=-5`);
  t.after(() => negative.close());
  await negative.until((f) => rows(f).length === 3);

  // After catch-up a resumed stream is live too, with no duplicates.
  await ingest(s.base, [{ kind: 'error', data: { n: 4 } }]);
  await resumed.until((f) => rows(f).length === 3);
  assert.deepEqual(rows(resumed.frames).map((r) => r.id), [2, 3, 4]);
  await live.until((f) => rows(f).length === 4);
  assert.deepEqual(rows(live.frames).map((r) => r.id), [1, 2, 3, 4]);
});

void test('GET /api/obs/stream: catch-up crosses batches of 500 in order', async (t) => {
  const s = stopAfter(t, await startServer());
  for (let i = 0; i < 6; i++) {
    await ingest(s.base, Array.from({ length: 200 }, (_, j) => ({ kind: 'tool_call', data: { n: i * 200 + j } })));
  }
  const sse = await openSse(`${s.base}/api/obs/stream?since=0`);
  t.after(() => sse.close());
  await sse.until((f) => rows(f).length === 1200);
  const ids = rows(sse.frames).map((r) => r.id);
  assert.deepEqual(ids, Array.from({ length: 1200 }, (_, i) => i + 1));
});

void test('GET /api/obs/stream: one tail query per table per tick, whatever the number of clients', async (t) => {
  const s = stopAfter(t, await startServer({ env: { SVC_TAIL_INTERVAL_MS: '200' } }));
  const streams = await Promise.all(Array.from({ length: 25 }, () => openSse(`${s.base}/api/obs/stream`)));
  t.after(() => Promise.all(streams.map((x) => x.close())));
  const tailStats = async () => {
    const h = (await (await fetch(`${s.base}/api/health/recheck`, { method: 'POST' })).json()) as { workers: Array<{ name: string; stats?: { ticks: number; queries: number } }> };
    const stats = h.workers.find((w) => w.name === 'tail')?.stats;
    assert.ok(stats, 'the tail worker reports its counters');
    return stats;
  };
  const before = await tailStats();
  // Counted over ticks that happened, however long they took to come.
  const after = await waitFor(async () => {
    const now = await tailStats();
    return now.ticks - before.ticks >= 5 ? now : undefined;
  }, { what: 'five tail ticks with 25 clients open' });
  const ticks = after.ticks - before.ticks;
  assert.equal(after.queries - before.queries, 2 * ticks, `exactly one query per table per tick (${ticks} ticks, 25 clients)`);
});

void test('Team chat (issue 17, speed): the tail worker checkpoints the WAL, so the team-chat worker\'s commits never have to', async (t) => {
  const s = stopAfter(t, await startServer({ env: { SVC_TAIL_INTERVAL_MS: '200' } }));
  const checkpoints = async () => {
    const h = (await (await fetch(`${s.base}/api/health/recheck`, { method: 'POST' })).json()) as { workers: Array<{ name: string; stats?: { checkpoints?: number } }> };
    return h.workers.find((w) => w.name === 'tail')?.stats?.checkpoints ?? 0;
  };
  await waitFor(async () => (await checkpoints()) >= 2, { what: 'two WAL checkpoints by the tail worker' });
});
