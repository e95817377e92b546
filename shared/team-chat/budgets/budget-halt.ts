// Budgets in the team chat (docs/team-chat.md, "Budgets"): what a run does when a
// `cap` budget that applies to it is paused. Three ways in:
// - the model endpoint refused a call of a running turn (routing on) and the
//   service asks the worker to halt it (haltForBudget);
// - fallback metering (routing off) paused a budget with the usage of a run
//   that just ended: the run is over, the rest of its message is halted;
// - a turn about to be sent finds a paused budget (blockedBy): nothing is sent.
// Each way writes the same `system`/`meta` entry naming the budget (one per
// budget and run: its entryId is fixed), and no further turn of that message
// goes to that agent (the orchestrator keeps the halted chain).
import type { EventInput } from '../../events/types.ts';

/** A paused budget that ends a run: which one, and how it is named to people (shared/budgets budgetLabel). */
export interface BudgetStop {
  budgetId: string;
  budgetLabel: string;
}

/** The scope a run spends under (CallScope, shared/budgets/schemas.ts); model null matches every budget's model. */
export interface RunScope {
  agentId: string;
  teamId: string | null;
  taskId: string | null;
  model: string | null;
}

/** What the runs need of the budget ledger (host.ts builds it over shared/budgets on the host's connection). */
export interface BudgetGate {
  /** The paused cap budget that applies to a call of this scope, else null. */
  blockedBy(scope: RunScope): BudgetStop | null;
  /**
   * Fallback metering: `usd` spent by unrouted model calls of a run. Transitions become events
   * (shared/budgets budgetEvents) with `base`; returns the budget paused by this spend, or a cap
   * budget of the spend's scope that was paused already (the run must stop), else null.
   */
  recordSpend(scope: RunScope, usd: number, base: Omit<EventInput, 'kind'>): BudgetStop | null;
}

/** The note a halted or blocked turn leaves in the transcript. */
export const budgetStopText = (agentName: string, label: string): string =>
  `${agentName} stopped: the ${label} budget reached its cap. Resume it on the Budgets page.`;

/** The executions row's error of such a turn. */
export const budgetStopReason = (label: string): string => `the ${label} budget reached its cap`;

/** One note per budget and run (a second halt of the same run writes nothing); `runKey` is the run id, else the executions row id. */
export const budgetEntryId = (budgetId: string, runKey: string): string => `budget-${budgetId}-${runKey}`;

/**
 * Whether `sessionKey` (as the model endpoint read it from the call's `Runtime:` line) names this run's
 * session: the gateway's key or svc's own, compared lowercased (the gateway lowercases session keys).
 */
export function isRunSession(spec: { gatewaySessionKey: string; sessionKey: string }, sessionKey: string): boolean {
  const k = sessionKey.trim().toLowerCase();
  return k === spec.gatewaySessionKey.toLowerCase() || k === spec.sessionKey.toLowerCase();
}

/** Whether `agentId` (svc's id; svc's agent ids are the gateway's) is this run's agent. */
export const isRunAgent = (agent: { id: string; gatewayId: string | null }, agentId: string): boolean =>
  agent.id === agentId || agent.gatewayId === agentId;
