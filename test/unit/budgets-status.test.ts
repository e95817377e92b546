// Issue 22, item 6: the budget status machine (spec "Budget status") as a
// property. Random sequences of limit changes, reserve/settle/release,
// fallback spend, resumes with and without grace and day boundaries run
// against the real ledger and store on a SQLite file, and against a plain
// reference model written from the spec's table; after every step each
// row's status, spend, reservations and warnings agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createBudgetLedger, createBudgetStore, type BudgetRow, type CallScope } from '../../shared/budgets/index.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { fc } from '../helpers/fc.ts';
import { removeHome, tempHome } from '../helpers/server.ts';

const S = 'Budgets (issue 22, item 6)';
const CALL: CallScope = { agentId: 'a1', teamId: 't1', taskId: null, model: 'gpt-4o' };
const DAY_MS = 86_400_000;
const WARN_PCT = 80;

type Mode = 'cap' | 'warn';
interface RefBudget {
  key: 'agent' | 'team';
  mode: Mode;
  daily: boolean;
  limit: number;
  grace: number;
  spent: number;
  reserved: number;
  status: 'active' | 'paused' | 'soft_capped';
  warned: number;
}

type Op =
  | { op: 'upsert'; row: 0 | 1; limit: number; mode: Mode }
  | { op: 'reserve'; est: number }
  | { op: 'settle'; pick: number; actual: number }
  | { op: 'release'; pick: number }
  | { op: 'spend'; amount: number }
  | { op: 'resume'; row: 0 | 1; grace: number | null }
  | { op: 'nextDay' };

// Zero (a free model) and whole cents often: spend lands exactly on a cap, where a call that adds nothing must still be refused.
const micro = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 30 }).map((c) => c * 10_000) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 600_000 }) },
);
const limit = fc.integer({ min: 1, max: 60 });
const mode = fc.constantFrom<Mode>('cap', 'warn');
const row = fc.constantFrom<0 | 1>(0, 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('upsert' as const), row, limit, mode }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('reserve' as const), est: micro }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('settle' as const), pick: fc.nat(), actual: micro }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('release' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('spend' as const), amount: micro }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('resume' as const), row, grace: fc.option(fc.integer({ min: 1, max: 50 })) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'nextDay' as const }) },
);

// ---- the reference model: the spec's table, in the plainest terms ----
const capOf = (b: RefBudget) => (b.limit + b.grace) * 10_000;
const reached = (b: RefBudget) => (b.spent >= capOf(b) ? 100 : b.spent * 100 >= capOf(b) * WARN_PCT ? WARN_PCT : 0);
function afterSpend(b: RefBudget): void {
  if (b.mode === 'cap') {
    if (b.spent >= capOf(b)) b.status = 'paused';
    return;
  }
  const r = reached(b);
  b.warned = Math.max(b.warned, r);
  b.status = r === 100 ? 'soft_capped' : 'active';
}
function fromSpend(b: RefBudget): void {
  if (b.mode === 'cap') {
    b.status = b.spent >= capOf(b) ? 'paused' : 'active';
    b.warned = 0;
    return;
  }
  b.warned = reached(b);
  b.status = b.warned === 100 ? 'soft_capped' : 'active';
}
// Rows in the ledger's order: agent before team.
const refuses = (b: RefBudget, est: number) =>
  b.mode === 'cap' && (b.status === 'paused' || b.spent + b.reserved >= capOf(b) || b.spent + b.reserved + est > capOf(b));

void test(`${S}: the status machine agrees with a reference model over random sequences of limits, calls, resumes and days`, () => {
  const home = tempHome('svc-budgets-prop-');
  let runs = 0;
  try {
    fc.assert(
      fc.property(fc.tuple(mode, mode), fc.tuple(fc.boolean(), fc.boolean()), fc.tuple(limit, limit), fc.array(opArb, { maxLength: 40 }), (modes, dailies, limits, ops) => {
        const db = openDatabase(join(home, `p${runs++}.db`));
        try {
          const clock = { now: new Date(2026, 4, 10, 12, 0).getTime() };
          const policy = { warnPct: WARN_PCT, hardCapUsdCents: null, now: () => clock.now };
          const store = createBudgetStore({ db, exists: () => true, ...policy });
          const ledger = createBudgetLedger({ db, ...policy });
          const ref: RefBudget[] = (['agent', 'team'] as const).map((key, i) => ({
            key,
            mode: modes[i] as Mode,
            daily: dailies[i] as boolean,
            limit: limits[i] as number,
            grace: 0,
            spent: 0,
            reserved: 0,
            status: 'active',
            warned: 0,
          }));
          const ids = ref.map(
            (b) =>
              store.upsert({ scope: b.key, scopeId: b.key === 'agent' ? 'a1' : 't1', limitUsdCents: b.limit, mode: b.mode, period: b.daily ? 'daily' : 'none', model: null }).id,
          );
          const open: Array<{ id: string; est: number }> = [];
          let n = 0;
          const steps: string[] = [];
          for (const op of ops) {
            steps.push(JSON.stringify(op));
            const at = () => steps.join('\n');
            if (op.op === 'upsert') {
              const b = ref[op.row] as RefBudget;
              b.limit = op.limit;
              b.mode = op.mode;
              b.grace = 0;
              fromSpend(b);
              store.upsert({ scope: b.key, scopeId: b.key === 'agent' ? 'a1' : 't1', limitUsdCents: op.limit, mode: op.mode, period: b.daily ? 'daily' : 'none', model: null });
            } else if (op.op === 'reserve') {
              const callId = `c${n++}`;
              const refusing = ref.find((b) => refuses(b, op.est));
              const got = ledger.reserve(callId, CALL, op.est / 1e6);
              assert.equal(got.ok, refusing === undefined, at());
              if (refusing) {
                refusing.status = 'paused';
                assert.ok(!got.ok);
                assert.equal(got.refusedBy.id, ids[ref.indexOf(refusing)], at());
              } else {
                for (const b of ref) b.reserved += op.est;
                open.push({ id: callId, est: op.est });
              }
            } else if (op.op === 'settle' || op.op === 'release') {
              if (open.length === 0) continue;
              const [call] = open.splice(op.pick % open.length, 1);
              if (!call) continue;
              const actual = op.op === 'settle' ? op.actual : 0;
              for (const b of ref) {
                b.reserved -= call.est;
                b.spent += actual;
                afterSpend(b);
              }
              if (op.op === 'settle') ledger.settle(call.id, actual / 1e6);
              else ledger.release(call.id);
            } else if (op.op === 'spend') {
              if (op.amount === 0) continue;
              for (const b of ref) {
                b.spent += op.amount;
                afterSpend(b);
              }
              ledger.recordSpend(CALL, op.amount / 1e6);
            } else if (op.op === 'resume') {
              const b = ref[op.row] as RefBudget;
              b.grace += op.grace ?? 0;
              if (b.mode === 'cap') {
                b.status = 'active';
                b.warned = 0;
              } else fromSpend(b);
              const r = store.resume(b.key, b.key === 'agent' ? 'a1' : 't1', { graceUsdCents: op.grace ?? undefined, model: null });
              assert.equal(r.willRepause, b.mode === 'cap' && b.spent >= capOf(b), at());
            } else {
              clock.now += DAY_MS;
              for (const b of ref) {
                if (!b.daily) continue;
                b.spent = 0;
                b.grace = 0;
                fromSpend(b);
              }
            }
            const rows = new Map(store.list().map((r: BudgetRow) => [r.id, r]));
            ref.forEach((b, i) => {
              const got = rows.get(ids[i] as string);
              assert.ok(got);
              assert.deepEqual(
                { status: got.status, spent: Math.round(got.spentUsd * 1e6), reservedCents: got.reservedUsdCents, warned: got.warnedPct, grace: got.graceUsdCents },
                { status: b.status, spent: b.spent, reservedCents: Math.ceil(b.reserved / 10_000), warned: b.warned, grace: b.grace },
                `${b.key} after:\n${at()}`,
              );
            });
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 150 },
    );
  } finally {
    removeHome(home);
  }
});
