// Governance budget counts for the fleet summary. Budgets have no table in
// this build yet: until one exists the counts are zeros and `available` is
// false, so a dashboard can tell "no budgets" from "no budget support". The
// table is looked up on every read, so counting starts once a migration adds
// it, with no change here. Statuses are the spec's ("Budget status").
import type { Db } from '../db/open.ts';

export const BUDGET_TABLE = 'budgets';
export const BUDGET_STATUSES = ['active', 'paused', 'soft_capped'] as const;
export type BudgetStatus = (typeof BUDGET_STATUSES)[number];

export interface BudgetCounts {
  /** false while no budgets table exists (the counts are then zeros). */
  available: boolean;
  total: number;
  byStatus: Record<BudgetStatus, number>;
}

const zeros = (): Record<BudgetStatus, number> => ({ active: 0, paused: 0, soft_capped: 0 });

export function createBudgetCounts(db: Db): () => BudgetCounts {
  const columnsStmt = db.prepare(`SELECT name FROM pragma_table_info('${BUDGET_TABLE}')`).pluck();
  return () => {
    const columns = new Set(columnsStmt.all() as string[]);
    if (columns.size === 0) return { available: false, total: 0, byStatus: zeros() };
    // Prepared per read: the table may appear (a migration by another
    // process) after this server started. A table without a status column
    // still gives its total.
    const byStatus = zeros();
    if (!columns.has('status')) {
      const total = db.prepare(`SELECT COUNT(*) FROM ${BUDGET_TABLE}`).pluck().get() as number;
      return { available: true, total, byStatus };
    }
    let total = 0;
    const rows = db.prepare(`SELECT status, COUNT(*) AS n FROM ${BUDGET_TABLE} GROUP BY status`).all() as Array<{ status: string; n: number }>;
    for (const r of rows) {
      total += r.n;
      if ((BUDGET_STATUSES as readonly string[]).includes(r.status)) byStatus[r.status as BudgetStatus] += r.n;
    }
    return { available: true, total, byStatus };
  };
}
