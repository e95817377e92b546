// shared/model-proxy/record-queue.ts: where the model endpoint's call
// records go. Through the off-thread writer (the ingest worker), gathered per
// turn into one batch, once the settlement they describe has committed; on
// this thread at once when they carry a budget transition or the writer does
// not serve; a batch the writer did not take is written here, one it failed
// is logged and not written twice. The writer and this thread's write are
// recorded functions; the turn is the real event loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRecordQueue, type RecordQueueDeps } from '../../shared/model-proxy/record-queue.ts';
import type { CallRecords } from '../../shared/model-proxy/records.ts';

const rec = (n: number): CallRecords => ({ cost: null, events: [{ kind: 'span_start', correlationId: `mc-${n}` }] });
const ids = (batch: CallRecords[]) => batch.map((r) => r.events[0]?.correlationId);

function rig(over: Partial<RecordQueueDeps> = {}) {
  const sent: CallRecords[][] = [];
  const here: CallRecords[][] = [];
  const errors: string[] = [];
  const commits: Array<() => void> = [];
  const q = createRecordQueue({
    serving: () => true,
    send: async (batch) => {
      sent.push(batch);
      return 'written';
    },
    here: (batch) => void here.push(batch),
    afterCommit: (cb) => void commits.push(cb),
    logger: { error: ((_o: object, msg: string) => void errors.push(msg)) as RecordQueueDeps['logger']['error'] },
    ...over,
  });
  const commit = () => commits.splice(0).forEach((cb) => cb());
  return { q, sent, here, errors, commit };
}

void test('Budgets (issue 31, benchmarks): call records go to the worker after their settlement commits, one batch per turn', async () => {
  const r = rig();
  r.q.sink(rec(1), { now: false });
  r.q.sink(rec(2), { now: false });
  await new Promise((res) => setImmediate(res));
  assert.deepEqual(r.sent, [], 'nothing before the commit');
  r.commit();
  await r.q.drained();
  assert.deepEqual(r.sent.map(ids), [['mc-1', 'mc-2']]);
  assert.deepEqual(r.here, []);
});

void test('Budgets (issue 31, benchmarks): records with a budget transition, or with no worker serving, are written on this thread at once', async () => {
  const r = rig({ serving: () => false });
  r.q.sink(rec(1), { now: true });
  assert.deepEqual(r.here.map(ids), [['mc-1']], 'a transition: at once, inside the open transaction');
  r.q.sink(rec(2), { now: false });
  r.commit();
  assert.deepEqual(r.here.map(ids), [['mc-1'], ['mc-2']], 'no worker: at the commit, synchronously');
  await r.q.drained();
  assert.deepEqual(r.sent, []);
});

void test('Budgets (issue 31, benchmarks): a batch the worker did not take is written here; one it failed is logged, not written twice', async () => {
  const refused = rig({ send: async () => 'unavailable' });
  refused.q.sink(rec(1), { now: false });
  refused.commit();
  await refused.q.drained();
  assert.deepEqual(refused.here.map(ids), [['mc-1']]);

  const failed = rig({ send: async () => Promise.reject(new Error('disk I/O error')) });
  failed.q.sink(rec(2), { now: false });
  failed.commit();
  await failed.q.drained();
  assert.deepEqual(failed.here, []);
  assert.equal(failed.errors.length, 1);
  assert.match(failed.errors[0] as string, /ingest worker failed/);
});
