// Recovery (docs/team-chat.md, "When something fails"; issue 17 #1): nothing
// stays `running` forever. When a host is created (svc boots, or the
// team-chat worker is restarted after a crash) every executions row still
// `running` was started by a process that is gone: it is closed as `error`
// with `execution_completed` and `error` events, a `system`/`meta` entry
// under its session key, the agent's status `error`. The runs themselves may
// still be going at the gateway: the caller aborts them once connected (best
// effort). Rows of native delegations (issue 23, trigger `spawn` and
// `announce`) are closed the same way; a child's row already holds the
// gateway's session key.
import type { TeamChatContext } from './context.ts';

export const INTERRUPTED = 'interrupted: svc restarted during the run';

export interface Interrupted {
  /** The gateway's session key of the run (the agent's gateway id in place of its svc id). */
  gatewaySessionKey: string;
  runId: string;
}

export function recoverRunning(ctx: TeamChatContext): Interrupted[] {
  const toAbort: Interrupted[] = [];
  for (const row of ctx.executions.running()) {
    const agent = ctx.domain.agents.get(row.agentId);
    const base = {
      teamId: row.teamId,
      agentId: row.agentId,
      taskId: row.taskId,
      traceId: row.traceId,
      spanId: row.spanId,
      parentSpanId: row.parentSpanId,
      correlationId: row.chainId,
    };
    ctx.tx.run(() => {
      if (!ctx.executions.finish(row.id, { status: 'error', endedAt: ctx.now(), error: INTERRUPTED })) return;
      ctx.eventLog.appendMany([
        { kind: 'execution_completed', ...base, data: { executionId: row.id, runId: row.runId, status: 'error', trigger: row.trigger } },
        { kind: 'error', ...base, data: { errorClass: 'TeamChatRunInterrupted', message: INTERRUPTED, executionId: row.id } },
      ]);
      ctx.entries.meta({
        teamId: row.teamId,
        agentId: row.agentId,
        sessionKey: row.sessionKey,
        text: `${agent?.name ?? row.agentId}'s run was ${INTERRUPTED}.`,
        runId: row.runId,
      });
      ctx.domain.agents.setStatus(row.agentId, 'error');
    });
    ctx.emit('status', { teamId: row.teamId, agentId: row.agentId, status: 'error' });
    const prefix = `agent:${row.agentId}:`;
    if (row.runId && row.trigger === 'spawn') {
      // A native delegation's child row holds the gateway's own session key.
      toAbort.push({ gatewaySessionKey: row.sessionKey, runId: row.runId });
    } else if (row.runId && row.sessionKey.startsWith(prefix)) {
      toAbort.push({ gatewaySessionKey: `agent:${agent?.gatewayId ?? row.agentId}:${row.sessionKey.slice(prefix.length)}`, runId: row.runId });
    }
  }
  return toAbort;
}
