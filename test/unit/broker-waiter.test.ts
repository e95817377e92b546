// Spec "States and transitions → Tool approval": a blocked waiter wakes on
// the resolve itself (same connection) and on a resolve committed by another
// connection (noticed through PRAGMA data_version, without re-reading the row
// while nothing changed), ends at expiry, and stops on abort or a deadline.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApprovalStore } from '../../shared/broker/approvals.ts';
import { createApprovalWaiter } from '../../shared/broker/waiter.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function twoConnections(t: TestContext): { a: Db; b: Db } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-broker-waiter-'));
  const a = openDatabase(join(dir, 'svc.db'));
  const b = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { a, b };
}

function setup(t: TestContext, checkMs = 20) {
  const { a, b } = twoConnections(t);
  const storeA = createApprovalStore(a);
  const storeB = createApprovalStore(b);
  let reads = 0;
  const waiter = createApprovalWaiter({
    db: a,
    get: (id) => {
      reads++;
      return storeA.get(id);
    },
    now: Date.now,
    crossProcessCheckMs: checkMs,
    onError: (err) => assert.fail(String(err)),
  });
  const open = (ttlMs = 60_000) =>
    storeA.open({ toolName: 'delete_path', agentId: 'x', argsSummary: null, reason: null, taskId: null, tenantId: null, ttlMs }, Date.now());
  return { a, b, storeA, storeB, waiter, open, reads: () => reads };
}

void test('Tool approval → waiter: no row reads while nothing changes; a commit elsewhere costs one re-read; a resolve elsewhere wakes it', async (t) => {
  const s = setup(t);
  const row = s.open();
  const wait = s.waiter.wait(row.id);
  assert.equal(s.reads(), 1, 'one look when the wait starts');
  await sleep(200); // about ten data_version checks
  assert.equal(s.reads(), 1, 'the row is not polled while no other connection commits');

  s.b.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('unrelated', '1', Date.now());
  await sleep(80);
  assert.equal(s.reads(), 2, 'one re-read after another connection committed');
  assert.equal(s.waiter.size(), 1);

  const at = Date.now();
  s.storeB.resolve(row.id, 'allow_always', Date.now());
  const outcome = await wait;
  assert.ok(Date.now() - at < 200);
  assert.equal(outcome.status, 'allow_always');
  assert.equal(outcome.approval?.status, 'allow_always');
  assert.equal(s.waiter.size(), 0);
});

void test('Tool approval → waiter: a resolve on the same connection wakes it through notify, before any check interval', async (t) => {
  const s = setup(t, 10_000);
  const row = s.open();
  const wait = s.waiter.wait(row.id);
  s.storeA.resolve(row.id, 'deny', Date.now());
  s.waiter.notify(row.id);
  const outcome = await Promise.race([wait, sleep(100).then(() => null)]);
  assert.equal(outcome?.status, 'deny');
});

void test('Tool approval → waiter: expiry is a denial, abort is cancelled, a deadline is timeout', async (t) => {
  const s = setup(t, 10_000);
  const started = Date.now();
  const expired = await s.waiter.wait(s.open(80).id);
  assert.equal(expired.status, 'expired');
  assert.ok(Date.now() - started >= 79 && Date.now() - started < 1000);

  const ac = new AbortController();
  const aborted = s.waiter.wait(s.open().id, { signal: ac.signal });
  ac.abort();
  assert.equal((await aborted).status, 'cancelled');

  const pre = new AbortController();
  pre.abort();
  assert.equal((await s.waiter.wait(s.open().id, { signal: pre.signal })).status, 'cancelled');

  assert.equal((await s.waiter.wait(s.open().id, { deadlineMs: 30 })).status, 'timeout');
  assert.equal(s.waiter.size(), 0, 'every ended wait unregisters');

  // A resolved row answers at once; an unknown id counts as expired.
  const done = s.open();
  s.storeA.resolve(done.id, 'allow_once', Date.now());
  assert.equal((await s.waiter.wait(done.id)).status, 'allow_once');
  assert.equal((await s.waiter.wait('nope')).status, 'expired');
});

void test('Tool approval → store: resolve only while pending and unexpired; sticky needs a named agent', (t) => {
  const s = setup(t);
  const row = s.open();
  const r1 = s.storeA.resolve(row.id, 'allow_always', 1_000_000_000_000_000);
  assert.equal(r1?.changed, false, 'past expiresAt: no update');
  const r2 = s.storeA.resolve(row.id, 'allow_always', Date.now());
  assert.equal(r2?.changed, true);
  assert.equal(r2?.approval.status, 'allow_always');
  const r3 = s.storeA.resolve(row.id, 'deny', Date.now());
  assert.equal(r3?.changed, false);
  assert.equal(r3?.approval.status, 'allow_always');
  assert.equal(s.storeA.resolve('missing', 'deny', Date.now()), null);
  assert.equal(s.storeA.hasStickyAllow('delete_path', 'x'), true);
  assert.equal(s.storeA.hasStickyAllow('delete_path', 'y'), false);
  assert.equal(s.storeA.hasStickyAllow('echo', 'x'), false);
  assert.equal(s.storeA.hasStickyAllow('delete_path', null), false);
});
