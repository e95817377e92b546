// Spec "Smaller resources" → "Cost records".
export { COST_LIST_MAX, COST_MESSAGES, CostListQuerySchema, CostRecordCreateSchema, SUMMARY_DAYS } from './schemas.ts';
export type { CostListQuery, CostRecordCreate } from './schemas.ts';
export { createCostRecords } from './store.ts';
export type { CostRecord, CostRecords } from './store.ts';
export { summaryWindow, zeroFill } from './summary.ts';
export type { AgentCost, CostSummary, CostTotals, DailyCost } from './summary.ts';
