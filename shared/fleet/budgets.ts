// Governance budget counts for the fleet summary: rows of the budgets table
// (migration 15) by status. Statuses are the spec's ("Budget status"), from
// shared/budgets. `available` stays in the shape for dashboards written
// before the table existed: it is true in every build that has it.
import type { Db } from '../db/open.ts';
import { BUDGET_STATUSES, type BudgetStatus } from '../budgets/index.ts';

export const BUDGET_TABLE = 'budgets';
export { BUDGET_STATUSES, type BudgetStatus };

export interface BudgetCounts {
  available: boolean;
  total: number;
  byStatus: Record<BudgetStatus, number>;
}

export function createBudgetCounts(db: Db): () => BudgetCounts {
  const byStatusStmt = db.prepare(`SELECT status, COUNT(*) AS n FROM ${BUDGET_TABLE} GROUP BY status`);
  return () => {
    const byStatus: Record<BudgetStatus, number> = { active: 0, paused: 0, soft_capped: 0 };
    let total = 0;
    for (const r of byStatusStmt.all() as Array<{ status: string; n: number }>) {
      total += r.n;
      if ((BUDGET_STATUSES as readonly string[]).includes(r.status)) byStatus[r.status as BudgetStatus] += r.n;
    }
    return { available: true, total, byStatus };
  };
}
