// How a run that ended with a reply is accounted for, whoever started it:
// the orchestrator's own runs (run.ts) and the gateway's native delegations
// (spawns.ts). Its usage is the gateway's per-call usage of that run, read
// once from the session's chat.history; it is priced into one cost record and
// a `cost` event, the executions row becomes `completed` with its tokens and
// cost, and `execution_completed` follows. Calls that went through svc's
// model endpoint (issue 22) have their cost record and `cost` event from
// there: only the run's other calls are recorded here (nothing counted
// twice); the executions row still shows the whole run. Both are priced by
// the cost records' price book (shared/pricing), as the endpoint prices.
import { messageOf } from '../../errors.ts';
import type { EventInput } from '../../events/types.ts';
import type { TeamChatContext } from '../context.ts';
import { HISTORY_LIMIT, noUsage, usageOfRun, type RunUsage } from './usage.ts';

/** The per-call usage of `runId` in its gateway session; zero tokens (logged) when the read fails: the reply is kept either way. */
export async function readRunUsage(ctx: TeamChatContext, gatewaySessionKey: string, runId: string): Promise<RunUsage> {
  try {
    const history = await ctx.gateway.request('chat.history', { sessionKey: gatewaySessionKey, limit: HISTORY_LIMIT }, { timeoutMs: 10_000, waitMs: 0 });
    return usageOfRun(history, runId);
  } catch (err) {
    ctx.logger.warn({ err: messageOf(err), runId }, 'team chat: chat.history for usage failed; cost recorded as zero');
    return noUsage();
  }
}

export interface Completion {
  executionId: string;
  teamId: string;
  agentId: string;
  /** Null for a run halted before the gateway named it. */
  runId: string | null;
  /** svc's transcript key of the run (the cost record's session key). */
  sessionKey: string;
  trigger: string;
  usage: RunUsage;
  /** Who, which task, where in the trace: every event of the run carries it. */
  base: Omit<EventInput, 'kind'>;
  /** More fields for `execution_completed` (a native run's parent). */
  completedData?: Record<string, unknown>;
  /** Whether the agent is one of svc's, so its status goes back to idle. */
  setIdle: boolean;
  /** A run a budget halted ends `cancelled` with this error (budget-halt.ts); else `completed`. */
  haltedBy?: string;
}

/**
 * Records the run's cost and ends its row, inside the caller's transaction.
 * Returns the whole run's cost, the cost of the calls recorded here
 * (`unroutedUsd`: the unrouted ones, what fallback metering spends), and
 * `ended`: false when a stop (or recovery) closed the row first, in which
 * case its end event was written then.
 */
export function recordCompletion(ctx: TeamChatContext, c: Completion): { costUsd: number; unroutedUsd: number; ended: boolean } {
  const { usage } = c;
  const own = usage.unrouted;
  // A run whose every call went through svc's endpoint has nothing left to record here; nor has a
  // halted run that made no call (a completed run without known usage still gets its row, as before).
  const recordHere = own.calls > 0 || (usage.routed.calls === 0 && !c.haltedBy);
  const cost = recordHere
    ? ctx.costs.record({
        agentId: c.agentId,
        teamId: c.teamId,
        runId: c.runId,
        sessionKey: c.sessionKey,
        model: own.model ?? usage.model,
        inputTokens: own.inputTokens,
        outputTokens: own.outputTokens,
        cacheReadTokens: own.cacheReadTokens,
        cacheWriteTokens: own.cacheWriteTokens,
      }).costUsd
    : 0;
  // The whole run, priced as the endpoint prices its calls (a `svc-<agent>` model by its upstream's
  // price): the same book, so the row matches the sum of its parts.
  const runCost = cost + ctx.costs.prices.costOf(usage.routed);
  const usageData = { executionId: c.executionId, runId: c.runId, model: usage.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, usd: runCost };
  if (recordHere) {
    ctx.eventLog.append({
      kind: 'cost',
      ...c.base,
      data: { ...usageData, model: own.model ?? usage.model, inputTokens: own.inputTokens, outputTokens: own.outputTokens, usd: cost },
    });
  }
  const status = c.haltedBy ? 'cancelled' : 'completed';
  const ended = ctx.executions.finish(c.executionId, {
    status,
    endedAt: ctx.now(),
    error: c.haltedBy ?? null,
    model: usage.model,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: runCost,
  });
  if (ended) {
    ctx.eventLog.append({
      kind: 'execution_completed',
      ...c.base,
      data: { ...usageData, status, trigger: c.trigger, ...(c.haltedBy ? { error: c.haltedBy } : {}), ...c.completedData },
    });
    if (c.setIdle) ctx.domain.agents.setStatus(c.agentId, 'idle');
  }
  return { costUsd: runCost, unroutedUsd: cost, ended };
}
