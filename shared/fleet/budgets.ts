// Governance budget counts for the fleet summary: rows of the budgets table
// (migration 15) by status. Statuses are the spec's ("Budget status"), from
// shared/budgets. `available` stays in the shape for dashboards written
// before the table existed: it is true in every build that has it.
//
// Period resets are lazy (shared/budgets/period.ts): a daily or monthly row
// whose period ended keeps its old status until a call or a budget read
// touches it. Counted as it will read, a row from an earlier period is
// `active` (its reset spend is zero, below any limit), so the summary does
// not show yesterday's paused budget as paused today.
import type { Db } from '../db/open.ts';
import { BUDGET_STATUSES, periodStartOf, type BudgetStatus } from '../budgets/index.ts';

export const BUDGET_TABLE = 'budgets';
export { BUDGET_STATUSES, type BudgetStatus };

export interface BudgetCounts {
  available: boolean;
  total: number;
  byStatus: Record<BudgetStatus, number>;
}

export function createBudgetCounts(db: Db): (at: number) => BudgetCounts {
  const byStatusStmt = db.prepare(
    `SELECT CASE WHEN (period = 'daily' AND coalesce(period_start, 0) < @daily) OR (period = 'monthly' AND coalesce(period_start, 0) < @monthly)
       THEN 'active' ELSE status END AS status, COUNT(*) AS n
     FROM ${BUDGET_TABLE} GROUP BY 1`,
  );
  return (at) => {
    const byStatus: Record<BudgetStatus, number> = { active: 0, paused: 0, soft_capped: 0 };
    let total = 0;
    const rows = byStatusStmt.all({ daily: periodStartOf('daily', at), monthly: periodStartOf('monthly', at) }) as Array<{ status: string; n: number }>;
    for (const r of rows) {
      total += r.n;
      if ((BUDGET_STATUSES as readonly string[]).includes(r.status)) byStatus[r.status as BudgetStatus] += r.n;
    }
    return { available: true, total, byStatus };
  };
}
