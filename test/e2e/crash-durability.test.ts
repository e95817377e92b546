// kill -9 while events are being appended, 20 times: every acknowledged event
// is present after restart, seq strictly increasing in acknowledgement order,
// PRAGMA integrity_check ok.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { removeHome, startServer, tempHome } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const ROUNDS = 20;

void test('Orchestration event row: acknowledged events survive kill -9 (20 rounds), seq strictly increasing, integrity ok', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const acked: number[] = [];
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const s = await startServer({ home });
    let stop = false;
    // Two concurrent writers, so the kill lands mid-transaction at times.
    const writer = async () => {
      while (!stop) {
        const batch = Array.from({ length: 5 }, () => next++);
        try {
          const res = await fetch(`${s.base}/api/obs/ingest`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ events: batch.map((n) => ({ kind: 'tool_call', data: { n } })) }),
          });
          if (res.status === 200 && ((await res.json()) as { count: number }).count === batch.length) acked.push(...batch);
        } catch {
          // The server died mid-request: this batch was never acknowledged.
          return;
        }
      }
    };
    const writers = [writer(), writer()];
    // The kill comes at a random point, counted in acknowledged batches (2 to 11 this round), not in ms:
    // however slow the machine, every round has writes acknowledged before it and more in flight.
    const target = acked.length + 5 * (2 + Math.floor(Math.random() * 10));
    await waitFor(() => acked.length >= target, { what: `round ${round}'s acknowledged events before the kill`, intervalMs: 1 });
    s.proc.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await s.stop();
  }
  t.diagnostic(`${acked.length} events acknowledged across ${ROUNDS} kill -9 rounds`);
  assert.ok(acked.length > ROUNDS * 5, `too few acknowledged events (${acked.length}) for the test to mean anything`);

  // Restart once more: the server opens the file after 20 crashes and serves.
  const s = await startServer({ home });
  const health = (await (await fetch(`${s.base}/api/health`)).json()) as { ok: boolean; fatal: string[] };
  await s.stop();
  assert.equal(health.ok, true, JSON.stringify(health.fatal));

  const db = new Database(join(home, 'svc.db'), { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  const seqOf = new Map<number, number>();
  for (const r of db.prepare('SELECT seq, data FROM events ORDER BY seq').all() as Array<{ seq: number; data: string }>) {
    seqOf.set((JSON.parse(r.data) as { n: number }).n, r.seq);
  }
  const missing = acked.filter((n) => !seqOf.has(n));
  assert.deepEqual(missing, [], 'acknowledged events lost');
  // Within one writer's stream acknowledgement order is commit order, so each batch is contiguous and increasing.
  for (let i = 0; i + 4 < acked.length; i += 5) {
    const seqs = acked.slice(i, i + 5).map((n) => seqOf.get(n) as number);
    for (let j = 1; j < seqs.length; j++) assert.equal(seqs[j], (seqs[j - 1] as number) + 1);
  }
  const allSeqs = [...seqOf.values()].sort((a, b) => a - b);
  assert.equal(new Set(allSeqs).size, allSeqs.length, 'seq values are unique');
});
