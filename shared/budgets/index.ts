// Budgets (issue 22; spec "Budget row", "Budget status", the Governance
// budget routes): rows, the reserve/settle ledger, the status machine, the
// events and labels. docs/budgets.md describes the units and rules.
export {
  BUDGET_MESSAGES,
  BUDGET_MODES,
  BUDGET_SCOPES,
  BUDGET_STATUSES,
  BudgetResumeBody,
  BudgetRowSchema,
  BudgetScope,
  BudgetUpsertBody,
  GLOBAL_SCOPE_ID,
  MAX_LIMIT_USD_CENTS,
  type BudgetMode,
  type BudgetResume,
  type BudgetRow,
  type BudgetStatus,
  type BudgetTransition,
  type BudgetUpsert,
  type CallScope,
  type ReserveResult,
  type ResumedBudget,
} from './schemas.ts';
export { BUDGET_PERIODS, periodStartOf, type BudgetPeriod } from './period.ts';
export { formatUsdCents, microToCentsCeil, microToCentsFloor, usdToMicro } from './money.ts';
export { budgetEvents, budgetLabel, capText } from './events.ts';
export { createBudgetLedger, type BudgetLedger, type LedgerDeps } from './ledger.ts';
export { createBudgetStore, type BudgetPosture, type BudgetStore, type StoreDeps } from './store.ts';
export { createBudgetService, type BudgetService, type BudgetServiceDeps } from './service.ts';
export { normaliseModel, type BudgetPolicy } from './rows.ts';
