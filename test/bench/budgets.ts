// A model call's reservation and its settlement (issue 22): the ledger's
// reserve + settle of one call under 4 applying budgets (global, team,
// agent, task; 500 budgets of other agents in the table), each its own
// IMMEDIATE transaction, against the same number of bare BEGIN IMMEDIATE /
// COMMIT pairs (the transaction floor of a call: one before it is forwarded,
// one when it ends) on the same database file, same run. A third line, the
// floor with one row written per transaction, and a fourth, the same rows
// written by hand-written SQL with no status logic (select the applying
// budgets, 4 reservations and 4 budget updates; then close the reservations
// and 4 budget updates), show how much of the gap is SQLite writing pages at
// all, and how much is the ledger's own code. In process, one connection (svc's pragmas:
// WAL, synchronous NORMAL), 4 rounds alternating the order, 5,000 calls each
// after 500 of warm-up; per-call latency from performance.now().
// Target: the ledger's p50 under 2x the bare transactions' (median of the
// per-round ratios).
import { join } from 'node:path';
import { createBudgetLedger, createBudgetStore, type CallScope } from '../../shared/budgets/index.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { removeHome, tempHome } from '../helpers/server.ts';
import { fmt, median, percentile } from './lib/stats.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const CALLS = 5000;
const WARMUP = 500;
const ROUNDS = 4;
const OTHER_BUDGETS = 500;
const TARGET = 2;
const SCOPE: CallScope = { agentId: 'agent-1', teamId: 'team-1', taskId: 'task-1', model: 'openai/gpt-4o' };

interface Sample {
  p50: number;
  p99: number;
}

/** Per-call latency (µs) of `fn` over CALLS calls after a warm-up. */
function measure(fn: (i: number) => void, offset: { n: number }): Sample {
  for (let i = 0; i < WARMUP; i++) fn(offset.n++);
  const us: number[] = new Array<number>(CALLS);
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    fn(offset.n++);
    us[i] = (performance.now() - t0) * 1000;
  }
  return { p50: median(us), p99: percentile(us, 99) };
}

function seed(db: Db): void {
  const store = createBudgetStore({ db, warnPct: 80, hardCapUsdCents: null, exists: () => true });
  const big = 100_000_000;
  store.upsert({ scope: 'global', scopeId: 'all', limitUsdCents: big, mode: 'cap', period: 'monthly', model: null });
  store.upsert({ scope: 'team', scopeId: SCOPE.teamId as string, limitUsdCents: big, mode: 'warn', period: 'daily', model: null });
  store.upsert({ scope: 'agent', scopeId: SCOPE.agentId, limitUsdCents: big, mode: 'cap', period: 'none', model: null });
  store.upsert({ scope: 'task', scopeId: SCOPE.taskId as string, limitUsdCents: big, mode: 'cap', period: 'none', model: 'gpt-4o' });
  for (let i = 0; i < OTHER_BUDGETS; i++) store.upsert({ scope: 'agent', scopeId: `other-${i}`, limitUsdCents: big, mode: 'cap', period: 'none', model: null });
}

const show = (s: Sample) => `p50 ${fmt(s.p50, 1)} µs, p99 ${fmt(s.p99, 1)} µs`;

export const budgets: Benchmark = {
  name: 'budgets',
  async run(): Promise<BenchResult> {
    const home = tempHome('svc-bench-budgets-');
    const db = openDatabase(join(home, 'svc.db'));
    try {
      seed(db);
      const ledger = createBudgetLedger({ db, warnPct: 80, hardCapUsdCents: null });
      const probe = ledger.reserve('probe', SCOPE, 0.01);
      if (!probe.ok || probe.budgetIds.length !== 4) throw new Error(`expected 4 applying budgets, got ${JSON.stringify(probe)}`);
      ledger.release('probe');
      db.exec(`CREATE TABLE bench_floor (id INTEGER PRIMARY KEY, n INTEGER NOT NULL); INSERT INTO bench_floor VALUES (1, 0);`);
      const begin = db.prepare('BEGIN IMMEDIATE');
      const commit = db.prepare('COMMIT');
      const write = db.prepare('UPDATE bench_floor SET n = n + 1 WHERE id = 1');
      const applying = db.prepare(
        `SELECT id FROM budgets WHERE (model = '' OR model = @model) AND ((scope = 'global' AND scope_id = 'all')
           OR (scope = 'team' AND scope_id = @teamId) OR (scope = 'agent' AND scope_id = @agentId) OR (scope = 'task' AND scope_id = @taskId))`,
      );
      const reserveRow = db.prepare(`INSERT INTO budget_reservations (call_id, budget_id, amount_micro_usd, state, created_at) VALUES (?, ?, 12000, 'open', 0)`);
      const holdRow = db.prepare(`UPDATE budgets SET reserved_micro_usd = reserved_micro_usd + 12000 WHERE id = ?`);
      const closeRows = db.prepare(`UPDATE budget_reservations SET state = 'settled', settled_micro_usd = 9000, closed_at = 0 WHERE call_id = ? AND state = 'open' RETURNING budget_id`).pluck();
      const spendRow = db.prepare(`UPDATE budgets SET spent_micro_usd = spent_micro_usd + 9000, reserved_micro_usd = reserved_micro_usd - 12000, updated_at = 0 WHERE id = ?`);
      const args = { model: 'gpt-4o', teamId: SCOPE.teamId, agentId: SCOPE.agentId, taskId: SCOPE.taskId };
      const calls = { n: 0 };
      const sides = {
        ledger: (i: number) => {
          ledger.reserve(`call-${i}`, SCOPE, 0.012);
          ledger.settle(`call-${i}`, 0.009);
        },
        bare: () => {
          begin.run();
          commit.run();
          begin.run();
          commit.run();
        },
        sameSql: (i: number) => {
          begin.run();
          for (const { id } of applying.all(args) as Array<{ id: string }>) {
            reserveRow.run(`raw-${i}`, id);
            holdRow.run(id);
          }
          commit.run();
          begin.run();
          for (const id of closeRows.all(`raw-${i}`) as string[]) spendRow.run(id);
          commit.run();
        },
        oneRow: () => {
          begin.run();
          write.run();
          commit.run();
          begin.run();
          write.run();
          commit.run();
        },
      };
      const runs: Array<Record<keyof typeof sides, Sample>> = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = (round % 2 === 0 ? ['ledger', 'bare', 'oneRow', 'sameSql'] : ['sameSql', 'oneRow', 'bare', 'ledger']) as Array<keyof typeof sides>;
        const r = {} as Record<keyof typeof sides, Sample>;
        for (const side of order) r[side] = measure(sides[side], calls);
        runs.push(r);
        console.log(`round ${round + 1}: ledger ${show(r.ledger)}; bare ${show(r.bare)}; one-row floor ${show(r.oneRow)}; same rows by hand ${show(r.sameSql)}`);
      }
      const open = db.prepare(`SELECT COUNT(*) FROM budget_reservations WHERE state = 'open'`).pluck().get() as number;
      if (open !== 0) throw new Error(`${open} reservations left open`);
      const ratio = median(runs.map((r) => r.ledger.p50 / r.bare.p50));
      const ratio99 = median(runs.map((r) => r.ledger.p99 / r.bare.p99));
      const floorRatio = median(runs.map((r) => r.ledger.p50 / r.oneRow.p50));
      const sqlRatio = median(runs.map((r) => r.ledger.p50 / r.sameSql.p50));
      const pick = (side: keyof typeof sides) => ({ p50: median(runs.map((r) => r[side].p50)), p99: median(runs.map((r) => r[side].p99)) });
      return {
        name: 'budgets',
        figures: `reserve+settle ${show(pick('ledger'))}; 2 bare BEGIN IMMEDIATE/COMMIT ${show(pick('bare'))}; 2 one-row transactions ${show(pick('oneRow'))}; same rows by hand ${show(pick('sameSql'))}`,
        ratio: `${fmt(ratio, 1)}x bare at p50 (${fmt(ratio99, 1)}x at p99); ${fmt(floorRatio, 1)}x the one-row floor; ${fmt(sqlRatio, 2)}x the same rows by hand`,
        target: `< ${TARGET}x bare at p50`,
        pass: ratio < TARGET,
      };
    } finally {
      db.close();
      removeHome(home);
    }
  },
};
