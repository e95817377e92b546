// The shapes of one agent run (run.ts), in their own file so the run's
// helpers (run-parts.ts, run-budget.ts) can name them without importing the
// run itself.
import type { BudgetStop } from '../budgets/budget-halt.ts';
import type { RosterAgent } from '../routing/answerer.ts';

export interface RunSpec {
  teamId: string;
  agent: RosterAgent;
  /** svc's transcript key (also the executions row's session key). */
  sessionKey: string;
  gatewaySessionKey: string;
  /** The full text sent: preamble, marker, message. */
  text: string;
  /** `user`, `handover`, `delegation`, `result`, `exchange`. */
  trigger: string;
  taskId: string | null;
  chainId: string;
  traceId: string;
  parentSpanId: string | null;
  /** Team deliveries write transcript entries; exchange turns only post to the room. */
  transcript: boolean;
}

export interface RunOutcome {
  state: 'final' | 'error' | 'cancelled';
  text: string;
  error: string | null;
  runId: string | null;
  /** A budget stopped this agent in this message: the run was halted or blocked, or its spend paused the budget. */
  budgetStop?: BudgetStop;
}

export interface RunHandle {
  readonly executionId: string;
  readonly spanId: string;
  readonly spec: RunSpec;
  runId: string | null;
  /** The running text so far (replace semantics). */
  text: string;
  /** Set by a stop: the run is being aborted and its row is already `cancelled`. */
  stopped: boolean;
  /** Set by a budget halt (budget-halt.ts): the run is being aborted; it ends `cancelled` naming the budget. */
  halted: BudgetStop | null;
  /** Aborted by a stop: ends a wait for the gateway at once. */
  readonly abort: AbortController;
  readonly done: Promise<RunOutcome>;
}
