// Types of ui/budget.mjs, for the TypeScript that reads its report (the UI benchmark).
export declare const ENTRY_BUDGET_KB: number;
export interface BudgetReport {
  entryKb: number;
  largestLazyKb: number;
  initial: string[];
  lazy: string[];
  problems: string[];
}
export declare function initialAssets(html: string): string[];
export declare function checkBudget(dist: string): BudgetReport;
