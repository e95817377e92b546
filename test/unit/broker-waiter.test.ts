// Spec "States and transitions → Tool approval": a blocked waiter wakes on
// the resolve itself (same connection) and on a resolve committed by another
// connection (noticed through PRAGMA data_version, without re-reading the row
// while nothing changed), ends at expiry, and stops on abort or a deadline.
// Time is injected (issue 16 #5): the waiter's clock is `now`, its timers are
// node:test's mock timers, so every check says exactly which tick did what.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApprovalStore } from '../../shared/broker/approvals.ts';
import { createApprovalWaiter } from '../../shared/broker/waiter.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { OperatorRequiredError } from '../../shared/broker/operator.ts';
import { isOperatorPrincipal, operatorPrincipal } from '../../supervisor/http/operator-principal.ts';

const OP = operatorPrincipal('http');

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
  const storeA = createApprovalStore(a, isOperatorPrincipal);
  const storeB = createApprovalStore(b, isOperatorPrincipal);
  let reads = 0;
  let clock = Date.now();
  const waiter = createApprovalWaiter({
    db: a,
    get: (id) => {
      reads++;
      return storeA.get(id);
    },
    now: () => clock,
    crossProcessCheckMs: checkMs,
    onError: (err) => assert.fail(String(err)),
  });
  const open = (ttlMs = 60_000) =>
    storeA.open({ toolName: 'delete_path', agentId: 'x', agentTokenId: 'token-of-x', argsSummary: null, reason: null, taskId: null, tenantId: null, ttlMs }, clock);
  /** Moves the waiter's clock and runs the (mocked) timers that fall due; the test must have enabled mock timers. */
  const advance = (ms: number) => {
    clock += ms;
    t.mock.timers.tick(ms);
  };
  return { a, b, storeA, storeB, waiter, open, reads: () => reads, now: () => clock, advance };
}

/** The waiter's setTimeout and setInterval run only when a test advances them. */
const mockTimers = (t: TestContext) => t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });

void test('Tool approval → waiter: no row reads while nothing changes; a commit elsewhere costs one re-read; a resolve elsewhere wakes it', async (t) => {
  mockTimers(t);
  const s = setup(t, 20);
  const row = s.open();
  const wait = s.waiter.wait(row.id);
  assert.equal(s.reads(), 1, 'one look when the wait starts');
  s.advance(200); // ten data_version checks
  assert.equal(s.reads(), 1, 'the row is not polled while no other connection commits');

  s.b.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('unrelated', '1', s.now());
  assert.equal(s.reads(), 1, 'nothing is read before the next check');
  s.advance(20);
  assert.equal(s.reads(), 2, 'one re-read at the check after another connection committed');
  s.advance(100);
  assert.equal(s.reads(), 2, 'and none at the checks after it');
  assert.equal(s.waiter.size(), 1);

  s.storeB.resolve(OP, row.id, 'allow_always', s.now());
  assert.equal(s.waiter.size(), 1, 'a resolve elsewhere is seen at the next check, not before');
  s.advance(20);
  assert.equal(s.waiter.size(), 0, 'the first check after the resolve wakes it');
  const outcome = await wait;
  assert.equal(outcome.status, 'allow_always');
  assert.equal(outcome.approval?.status, 'allow_always');
});

void test('Tool approval → waiter: a resolve on the same connection wakes it through notify, before any check interval', async (t) => {
  mockTimers(t);
  const s = setup(t, 10_000);
  const row = s.open();
  const wait = s.waiter.wait(row.id);
  s.storeA.resolve(OP, row.id, 'deny', s.now());
  assert.equal(s.waiter.size(), 1, 'the store alone wakes nobody, and no timer has run');
  s.waiter.notify(row.id);
  assert.equal(s.waiter.size(), 0, 'notify wakes it at once');
  assert.equal((await wait).status, 'deny');
});

void test('Tool approval → waiter: expiry is a denial, abort is cancelled, a deadline is timeout', async (t) => {
  mockTimers(t);
  const s = setup(t, 10_000);
  const expiring = s.waiter.wait(s.open(80).id);
  s.advance(79);
  assert.equal(s.waiter.size(), 1, 'still waiting 1 ms before expiresAt');
  s.advance(2);
  assert.equal(s.waiter.size(), 0, 'the expiry timer ends the wait just past expiresAt');
  assert.equal((await expiring).status, 'expired');

  const ac = new AbortController();
  const aborted = s.waiter.wait(s.open().id, { signal: ac.signal });
  ac.abort();
  assert.equal((await aborted).status, 'cancelled');

  const pre = new AbortController();
  pre.abort();
  assert.equal((await s.waiter.wait(s.open().id, { signal: pre.signal })).status, 'cancelled');

  const timingOut = s.waiter.wait(s.open().id, { deadlineMs: 30 });
  s.advance(29);
  assert.equal(s.waiter.size(), 1, 'still waiting 1 ms before the deadline');
  s.advance(1);
  assert.equal((await timingOut).status, 'timeout');
  assert.equal(s.waiter.size(), 0, 'every ended wait unregisters');

  // A resolved row answers at once; an unknown id counts as expired.
  const done = s.open();
  s.storeA.resolve(OP, done.id, 'allow_once', s.now());
  assert.equal((await s.waiter.wait(done.id)).status, 'allow_once');
  assert.equal((await s.waiter.wait('nope')).status, 'expired');
});

void test('Tool approval → store: resolve only while pending and unexpired; sticky needs a named agent', (t) => {
  const s = setup(t);
  const row = s.open();
  const r1 = s.storeA.resolve(OP, row.id, 'allow_always', 1_000_000_000_000_000);
  assert.equal(r1?.changed, false, 'past expiresAt: no update');
  const r2 = s.storeA.resolve(OP, row.id, 'allow_always', Date.now());
  assert.equal(r2?.changed, true);
  assert.equal(r2?.approval.status, 'allow_always');
  const r3 = s.storeA.resolve(OP, row.id, 'deny', Date.now());
  assert.equal(r3?.changed, false);
  assert.equal(r3?.approval.status, 'allow_always');
  assert.equal(s.storeA.resolve(OP, 'missing', 'deny', Date.now()), null);
  const caller = (agentId: string | null, agentTokenId: string | null = 'some-token') => ({ agentId, agentTokenId });
  assert.equal(s.storeA.hasStickyAllow('delete_path', caller('x')), true);
  assert.equal(s.storeA.hasStickyAllow('delete_path', caller('y')), false);
  assert.equal(s.storeA.hasStickyAllow('echo', caller('x')), false);
  assert.equal(s.storeA.hasStickyAllow('delete_path', caller(null)), false);
});

void test('Security (issue 15 #6): a sticky allow_always is held and used only by an agent a minted token vouched for', (t) => {
  const s = setup(t);
  const open = (agentId: string | null, agentTokenId: string | null) =>
    s.storeA.open({ toolName: 'delete_path', agentId, agentTokenId, argsSummary: null, reason: null, taskId: null, tenantId: null, ttlMs: 60_000 }, Date.now());
  // A row whose agent id nobody vouched for (a query parameter, before this fix) never answers for that agent.
  s.storeA.resolve(OP, open('claimed', null).id, 'allow_always', Date.now());
  assert.equal(s.storeA.hasStickyAllow('delete_path', { agentId: 'claimed', agentTokenId: 'tok' }), false);
  // A vouched-for row answers only to a caller that is vouched for too.
  s.storeA.resolve(OP, open('bound', 'tok').id, 'allow_always', Date.now());
  assert.equal(s.storeA.hasStickyAllow('delete_path', { agentId: 'bound', agentTokenId: 'another-token-of-bound' }), true);
  assert.equal(s.storeA.hasStickyAllow('delete_path', { agentId: 'bound', agentTokenId: null }), false, 'the same agent id without a token is asked');
  // A token with no agent vouches for nothing.
  assert.equal(open(null, 'tok').agentId, null);
  assert.equal(s.a.prepare('SELECT COUNT(*) FROM tool_approvals WHERE agent_id IS NULL AND agent_token_id IS NOT NULL').pluck().get(), 0);
});

void test('Security (issue 15 #6): resolving takes an operator principal; a look-alike or a store without a check refuses', (t) => {
  const s = setup(t);
  const row = s.open();
  const forged = { kind: 'operator', via: 'http' };
  assert.throws(() => s.storeA.resolve(forged, row.id, 'allow_always', Date.now()), OperatorRequiredError);
  assert.throws(() => s.storeA.resolve({ ...OP }, row.id, 'allow_always', Date.now()), OperatorRequiredError, 'a copy is not the principal');
  const unchecked = createApprovalStore(s.b);
  assert.throws(() => unchecked.resolve(OP, row.id, 'allow_always', Date.now()), /only an operator \(the dashboard\) can resolve an approval/);
  assert.equal(s.storeA.get(row.id)?.status, 'pending');
  assert.equal(s.storeA.resolve(OP, row.id, 'deny', Date.now())?.approval.status, 'deny');
});
