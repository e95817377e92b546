// Issue 22, item 6 (and 3): the budget ledger on a real SQLite file. Which
// budgets apply to a call, a refusal that pauses its cap, settlement above
// the estimate, idempotent settle and release, recovery of reservations left
// open by a crash, periods on an injected clock, the hard cap, and two
// processes racing reservations against one cap.
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { budgetEvents, createBudgetLedger, createBudgetStore, type BudgetUpsert, type CallScope } from '../../shared/budgets/index.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createAuditLog } from '../../shared/governance/index.ts';
import { raceReservations, RACE_SCOPE } from '../helpers/budget-racer.ts';
import { removeHome, tempHome } from '../helpers/server.ts';

const S = 'Budgets (issue 22, item 6)';
const CALL: CallScope = { agentId: 'a1', teamId: 't1', taskId: 'k1', model: 'openai/GPT-4o' };

function setup(t: TestContext, opts: { hardCapUsdCents?: number | null; start?: number } = {}) {
  const home = tempHome('svc-budgets-');
  const path = join(home, 'svc.db');
  const db = openDatabase(path);
  t.after(() => {
    if (db.open) db.close();
    removeHome(home);
  });
  const clock = { now: opts.start ?? Date.parse('2026-03-14T10:00:00') };
  const policy = { warnPct: 80, hardCapUsdCents: opts.hardCapUsdCents ?? null };
  const now = () => clock.now;
  const store = createBudgetStore({ db, now, exists: () => true, ...policy });
  const ledger = createBudgetLedger({ db, now, ...policy });
  const set = (b: Partial<BudgetUpsert> & Pick<BudgetUpsert, 'scope' | 'scopeId'>) =>
    store.upsert({ limitUsdCents: 100, mode: 'cap', period: 'none', model: null, ...b });
  const row = (id: string) => store.list().find((r) => r.id === id);
  return { db, path, clock, store, ledger, set, row };
}

const openReservations = (db: Db) => db.prepare(`SELECT COUNT(*) FROM budget_reservations WHERE state = 'open'`).pluck().get() as number;

void test(`${S}: a call reserves under global, its team, agent, task and per-model budgets, and no others`, (t) => {
  const { ledger, set } = setup(t);
  const applying = [
    set({ scope: 'global', scopeId: 'all' }),
    set({ scope: 'team', scopeId: 't1' }),
    set({ scope: 'agent', scopeId: 'a1' }),
    set({ scope: 'task', scopeId: 'k1', mode: 'warn' }),
    set({ scope: 'agent', scopeId: 'a1', model: 'gpt-4o' }),
    set({ scope: 'global', scopeId: 'all', model: 'anthropic/GPT-4o' }),
  ];
  set({ scope: 'team', scopeId: 't2' });
  set({ scope: 'agent', scopeId: 'a2' });
  set({ scope: 'task', scopeId: 'k2' });
  set({ scope: 'agent', scopeId: 'a1', model: 'claude-sonnet-4-5' });
  assert.equal(applying[5]?.model, 'gpt-4o', 'a per-model budget stores the model lowercased, without its provider');
  const r = ledger.reserve('call-1', CALL, 0.1);
  assert.ok(r.ok);
  assert.deepEqual([...r.budgetIds].sort(), applying.map((b) => b.id).sort());
  assert.equal(r.reservedUsd, 0.1);
  const noModel = ledger.reserve('call-2', { ...CALL, model: null }, 0.1);
  assert.ok(noModel.ok);
  assert.equal(noModel.budgetIds.length, 4, 'a call of no known model counts only under budgets for every model');
});

void test(`${S}: a cap that a reservation would exceed refuses the call, pauses, reserves nothing and writes a cap_hit audit row`, (t) => {
  const { db, ledger, set, row } = setup(t);
  const cap = set({ scope: 'agent', scopeId: 'a1', limitUsdCents: 100 });
  const warn = set({ scope: 'team', scopeId: 't1', mode: 'warn', limitUsdCents: 100 });
  const first = ledger.reserve('c1', CALL, 0.6);
  assert.ok(first.ok);
  assert.equal(row(cap.id)?.reservedUsdCents, 60);
  assert.equal(row(warn.id)?.reservedUsdCents, 60, 'warn budgets hold reservations too');
  const second = ledger.reserve('c2', CALL, 0.6);
  assert.equal(second.ok, false);
  assert.ok(!second.ok);
  assert.equal(second.refusedBy.id, cap.id);
  assert.equal(second.refusedBy.status, 'paused');
  assert.deepEqual(second.transitions.map((x) => [x.budget.id, x.from, x.to, x.cause]), [[cap.id, 'active', 'paused', 'refusal']]);
  assert.equal(db.prepare(`SELECT COUNT(*) FROM budget_reservations WHERE call_id = 'c2'`).pluck().get(), 0);
  assert.equal(row(cap.id)?.reservedUsdCents, 60, 'the refused call reserved nothing');
  assert.equal(row(warn.id)?.status, 'active', 'a warn budget never refuses');
  const audit = createAuditLog(db).list({ kind: 'cap_hit' });
  assert.equal(audit.length, 1);
  assert.match(audit[0]?.summary ?? '', /^budget agent a1 paused: a call was refused \(cap \$1\.00\)$/);
  assert.equal(ledger.blockedBy({ ...CALL, model: null })?.id, cap.id);
  // Once paused, every further call is refused without a second transition.
  const third = ledger.reserve('c3', CALL, 0.01);
  assert.ok(!third.ok);
  assert.deepEqual(third.transitions, []);
  const events = budgetEvents(second.transitions, { agentId: 'a1' });
  assert.deepEqual(events, [
    {
      agentId: 'a1',
      kind: 'error',
      data: {
        errorClass: 'BudgetExceeded',
        message: 'budget agent a1 reached its cap of $1.00',
        budget: { id: cap.id, scope: 'agent', scopeId: 'a1', model: null, limitUsdCents: 100, spentUsdCents: 0 },
      },
    },
  ]);
});

void test(`${S}: settle counts the actual cost (even above the estimate) once; release frees the reservation; both idempotent`, (t) => {
  const { db, ledger, set, row } = setup(t);
  const b = set({ scope: 'agent', scopeId: 'a1', limitUsdCents: 1000 });
  assert.ok(ledger.reserve('c1', CALL, 0.1).ok);
  assert.ok(ledger.reserve('c2', CALL, 0.2).ok);
  assert.equal(row(b.id)?.reservedUsdCents, 30);
  assert.deepEqual(ledger.settle('c1', 0.25), []);
  assert.deepEqual(ledger.settle('c1', 0.25), [], 'a second settle changes nothing');
  assert.equal(row(b.id)?.spentUsd, 0.25);
  assert.equal(row(b.id)?.spentUsdCents, 25);
  assert.equal(row(b.id)?.reservedUsdCents, 20);
  ledger.release('c2');
  ledger.release('c2');
  ledger.settle('c2', 5);
  assert.equal(row(b.id)?.spentUsd, 0.25, 'a released call settles to nothing');
  assert.equal(row(b.id)?.reservedUsdCents, 0);
  assert.equal(openReservations(db), 0);
  assert.deepEqual(
    db.prepare(`SELECT call_id, state, settled_micro_usd FROM budget_reservations ORDER BY call_id`).all(),
    [
      { call_id: 'c1', state: 'settled', settled_micro_usd: 250_000 },
      { call_id: 'c2', state: 'released', settled_micro_usd: null },
    ],
  );
});

void test(`${S}: spend that reaches a cap pauses it; warn budgets warn at 80 % and 100 % once each and soft-cap`, (t) => {
  const { db, ledger, set, row } = setup(t);
  const cap = set({ scope: 'agent', scopeId: 'a1', limitUsdCents: 100 });
  const warn = set({ scope: 'team', scopeId: 't1', mode: 'warn', limitUsdCents: 100 });
  assert.ok(ledger.reserve('c1', CALL, 0.5).ok);
  const t1 = ledger.settle('c1', 0.85);
  assert.deepEqual(t1.map((x) => [x.budget.id, x.to, x.crossedPct]), [[warn.id, 'active', 80]]);
  assert.deepEqual(ledger.recordSpend(CALL, 0.01).map((x) => x.crossedPct), [], 'the 80 % warning is given once');
  const t2 = ledger.recordSpend(CALL, 0.2);
  assert.deepEqual(
    t2.map((x) => [x.budget.id, x.from, x.to, x.crossedPct, x.cause]).sort(),
    [
      [cap.id, 'active', 'paused', null, 'spend'],
      [warn.id, 'active', 'soft_capped', 100, 'spend'],
    ].sort(),
  );
  assert.equal(row(warn.id)?.warnedPct, 100);
  assert.deepEqual(
    budgetEvents(t2).map((e) => (e.data as { message: string }).message).sort(),
    ['budget agent a1 reached its cap of $1.00', 'budget team “t1” at 100 % of $1.00'],
  );
  const audit = createAuditLog(db).list();
  assert.deepEqual(
    audit.filter((a) => a.kind !== 'budget' || !a.summary.includes('created')).map((a) => a.summary).sort(),
    ['budget agent a1 paused: spend reached the cap (cap $1.00)', 'budget team “t1” at 100 % of $1.00', 'budget team “t1” at 80 % of $1.00'],
    'one cap_hit and two warnings',
  );
  ledger.recordSpend(CALL, 1);
  assert.equal(row(warn.id)?.status, 'soft_capped', 'warn budgets are never paused');
});

void test(`${S}: recoverOpen settles every reservation a crash left open at its reserved amount`, (t) => {
  const { db, path, clock, set, ledger } = setup(t);
  const b = set({ scope: 'agent', scopeId: 'a1', limitUsdCents: 100 });
  assert.ok(ledger.reserve('c1', CALL, 0.3).ok);
  assert.ok(ledger.reserve('c2', CALL, 0.4).ok);
  assert.ok(ledger.reserve('c3', CALL, 0.1).ok);
  ledger.settle('c3', 0.05);
  db.close();
  // A new process on the same file: nothing in memory survived.
  const db2 = openDatabase(path);
  t.after(() => db2.close());
  const after = createBudgetLedger({ db: db2, now: () => clock.now, warnPct: 80, hardCapUsdCents: null });
  assert.equal(after.recoverOpen(), 2);
  assert.equal(after.recoverOpen(), 0, 'nothing is open the second time');
  assert.equal(openReservations(db2), 0);
  const r = createBudgetStore({ db: db2, warnPct: 80, hardCapUsdCents: null }).list().find((x) => x.id === b.id);
  assert.equal(r?.spentUsd, 0.75);
  assert.equal(r?.reservedUsdCents, 0);
});

void test(`${S}: a daily budget starts again at local midnight; a monthly one on the 1st`, (t) => {
  const { clock, ledger, set, row } = setup(t, { start: new Date(2026, 0, 31, 23, 0).getTime() });
  const daily = set({ scope: 'agent', scopeId: 'a1', limitUsdCents: 100, period: 'daily' });
  const monthly = set({ scope: 'team', scopeId: 't1', limitUsdCents: 100, period: 'monthly', mode: 'warn' });
  ledger.recordSpend(CALL, 1.5);
  assert.equal(row(daily.id)?.status, 'paused');
  assert.equal(row(monthly.id)?.status, 'soft_capped');
  assert.ok(!ledger.reserve('c1', CALL, 0.01).ok);
  clock.now = new Date(2026, 0, 31, 23, 59, 59, 999).getTime();
  assert.equal(ledger.blockedBy(CALL)?.id, daily.id, 'still the same day');
  clock.now = new Date(2026, 1, 1, 0, 0).getTime();
  assert.equal(ledger.blockedBy(CALL), null, 'midnight starts a new period');
  assert.deepEqual(
    [row(daily.id)?.spentUsd, row(daily.id)?.status, row(daily.id)?.periodStartedAt],
    [0, 'active', new Date(2026, 1, 1).toISOString()],
  );
  assert.deepEqual([row(monthly.id)?.spentUsd, row(monthly.id)?.status, row(monthly.id)?.warnedPct], [0, 'active', 0]);
  ledger.recordSpend(CALL, 0.5);
  clock.now = new Date(2026, 1, 2, 0, 0).getTime();
  assert.equal(row(daily.id)?.spentUsd, 0, 'the list resets a rolled-over day too');
  assert.equal(row(monthly.id)?.spentUsd, 0.5, 'the month goes on');
});

void test(`${S}: the hard cap limits the global budget for every model below its own limit`, (t) => {
  const { ledger, store, row } = setup(t, { hardCapUsdCents: 50 });
  const g = store.ensureHardCapRow();
  assert.ok(g);
  assert.deepEqual([g.scope, g.scopeId, g.model, g.mode, g.limitUsdCents], ['global', 'all', null, 'cap', 50]);
  assert.equal(store.ensureHardCapRow()?.id, g.id, 'created once');
  // A limit over the hard cap is refused (issue 31, item 5), and the row stays at the cap.
  assert.throws(() => store.upsert({ scope: 'global', scopeId: 'all', limitUsdCents: 10_000, mode: 'cap', period: 'none', model: null }), /invalid budget/);
  assert.ok(ledger.reserve('c1', CALL, 0.4).ok);
  const refused = ledger.reserve('c2', CALL, 0.2);
  assert.ok(!refused.ok, 'the hard cap (50 cents) is in force');
  assert.equal(row(g.id)?.status, 'paused');
  assert.equal(row(g.id)?.limitUsdCents, 50, 'the row shows the limit in force');
  assert.deepEqual(budgetEvents(refused.transitions).map((e) => (e.data as { message: string }).message), ['budget global reached its cap of $0.50']);
  assert.equal(store.posture(), 'hard-cap');
});

void test(`${S}: two processes racing reservations on one file never reserve past the cap`, async (t) => {
  const { path, set, row, db } = setup(t);
  // 10 cents a call against a one-dollar cap: exactly ten calls fit.
  const cap = set({ scope: 'team', scopeId: RACE_SCOPE.teamId, limitUsdCents: 100 });
  const results = await raceReservations(path, ['a', 'b'], 40, 0.1, 0.1);
  const reserved = results.reduce((n, [r]) => n + r, 0);
  const refused = results.reduce((n, [, x]) => n + x, 0);
  assert.equal(reserved, 10, `calls let through: ${JSON.stringify(results)}`);
  assert.equal(refused, 70);
  assert.equal(row(cap.id)?.spentUsdCents, 100);
  assert.equal(row(cap.id)?.status, 'paused');
  assert.equal(openReservations(db), 0);
});

void test(`${S}: after a resume without grace at exactly the cap, even a call estimated at nothing is refused and pauses again`, (t) => {
  const { ledger, store, set, row } = setup(t);
  const b = set({ scope: 'agent', scopeId: 'a1', limitUsdCents: 30 });
  ledger.recordSpend(CALL, 0.3);
  assert.equal(row(b.id)?.status, 'paused');
  const resumed = store.resume('agent', 'a1', { model: null });
  assert.deepEqual([resumed.status, resumed.willRepause], ['active', true]);
  const r = ledger.reserve('free', CALL, 0);
  assert.ok(!r.ok);
  assert.equal(row(b.id)?.status, 'paused');
  const graced = store.resume('agent', 'a1', { graceUsdCents: 5, model: null });
  assert.deepEqual([graced.status, graced.willRepause, graced.graceUsdCents], ['active', false, 5]);
  assert.ok(ledger.reserve('next', CALL, 0.05).ok, 'the grace lets the next call through');
});
