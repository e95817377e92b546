// Small pieces of a run (run.ts) that its budget paths (run-budget.ts) share
// with it: the event fields of a run, the best-effort abort, and keeping what
// had streamed when a run ends without its final reply.
import { messageOf } from '../../errors.ts';
import type { EventInput } from '../../events/types.ts';
import type { TeamChatContext } from '../context.ts';
import type { RunHandle, RunSpec } from './run-types.ts';

/** The fields every event of a run carries: who, which task, and where it sits in the chain's trace. */
export function runEventBase(spec: RunSpec, spanId: string): Omit<EventInput, 'kind'> {
  return {
    teamId: spec.teamId,
    agentId: spec.agent.id,
    taskId: spec.taskId,
    traceId: spec.traceId,
    spanId,
    parentSpanId: spec.parentSpanId,
    correlationId: spec.chainId,
  };
}

/** Best effort: a run the orchestrator gave up on should not go on spending at the gateway. */
export function abortQuietly(ctx: TeamChatContext, h: Pick<RunHandle, 'runId' | 'spec'>): Promise<boolean> {
  const params = h.runId ? { sessionKey: h.spec.gatewaySessionKey, runId: h.runId } : { sessionKey: h.spec.gatewaySessionKey };
  return ctx.gateway.request('chat.abort', params, { timeoutMs: 5000, waitMs: 0 }).then(
    () => true,
    (err: unknown) => {
      // The run ends on our side either way; a gateway that is gone has nothing left to abort.
      ctx.logger.warn({ err: messageOf(err) }, 'team chat: chat.abort failed');
      return false;
    },
  );
}

/** Keeps what had streamed as the agent's entry: nothing shown to the user is lost. */
export function keepStreamed(ctx: TeamChatContext, h: RunHandle): void {
  const { spec } = h;
  if (spec.transcript && h.text !== '' && h.runId) {
    ctx.entries.reply({ teamId: spec.teamId, agentId: spec.agent.id, sessionKey: spec.sessionKey, text: h.text, runId: h.runId, trigger: spec.trigger, taskId: spec.taskId });
  }
}
