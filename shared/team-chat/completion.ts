// How a run that ended with a reply is accounted for, whoever started it:
// the orchestrator's own runs (run.ts) and the gateway's native delegations
// (spawns.ts). Its usage is the gateway's per-call usage of that run, read
// once from the session's chat.history; it is priced into one cost record and
// a `cost` event, the executions row becomes `completed` with its tokens and
// cost, and `execution_completed` follows.
import { messageOf } from '../errors.ts';
import type { EventInput } from '../events/types.ts';
import type { TeamChatContext } from './context.ts';
import { HISTORY_LIMIT, usageOfRun, type RunUsage } from './usage.ts';

const NO_USAGE: RunUsage = { inputTokens: 0, outputTokens: 0, model: null };

/** The per-call usage of `runId` in its gateway session; zero tokens (logged) when the read fails: the reply is kept either way. */
export async function readRunUsage(ctx: TeamChatContext, gatewaySessionKey: string, runId: string): Promise<RunUsage> {
  try {
    const history = await ctx.gateway.request('chat.history', { sessionKey: gatewaySessionKey, limit: HISTORY_LIMIT }, { timeoutMs: 10_000, waitMs: 0 });
    return usageOfRun(history, runId);
  } catch (err) {
    ctx.logger.warn({ err: messageOf(err), runId }, 'team chat: chat.history for usage failed; cost recorded as zero');
    return NO_USAGE;
  }
}

export interface Completion {
  executionId: string;
  teamId: string;
  agentId: string;
  runId: string;
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
}

/**
 * Records the run's cost and ends its row, inside the caller's transaction.
 * Returns the cost; `ended` is false when a stop (or recovery) closed the row
 * first, in which case its end event was written then.
 */
export function recordCompletion(ctx: TeamChatContext, c: Completion): { costUsd: number; ended: boolean } {
  const { usage } = c;
  const cost = ctx.costs.record({
    agentId: c.agentId,
    teamId: c.teamId,
    runId: c.runId,
    sessionKey: c.sessionKey,
    model: usage.model,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
  });
  const usageData = { executionId: c.executionId, runId: c.runId, model: usage.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, usd: cost.costUsd };
  ctx.eventLog.append({ kind: 'cost', ...c.base, data: usageData });
  const ended = ctx.executions.finish(c.executionId, {
    status: 'completed',
    endedAt: ctx.now(),
    model: usage.model,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: cost.costUsd,
  });
  if (ended) {
    ctx.eventLog.append({ kind: 'execution_completed', ...c.base, data: { ...usageData, status: 'completed', trigger: c.trigger, ...c.completedData } });
    if (c.setIdle) ctx.domain.agents.setStatus(c.agentId, 'idle');
  }
  return { costUsd: cost.costUsd, ended };
}
