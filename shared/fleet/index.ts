// Spec "Smaller resources" → "Fleet summary".
export { createFleetSummary, GATEWAY_RUNTIME } from './summary.ts';
export type { AgentCounts, FleetSummary, FleetSummaryDeps, RuntimeSummary } from './summary.ts';
export { ADAPTER_CLASSES, adapterClass, gatewayHealth } from './runtimes.ts';
export type { AdapterClass, RuntimeHealth } from './runtimes.ts';
export { ROLLUP_WINDOW_MS } from './board-rollup.ts';
export type { BoardRollup, VerificationCounts } from './board-rollup.ts';
export { BUDGET_STATUSES, BUDGET_TABLE } from './budgets.ts';
export type { BudgetCounts, BudgetStatus } from './budgets.ts';
