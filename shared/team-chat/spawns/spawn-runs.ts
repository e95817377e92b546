// The runs the spawn tracker follows (spawns.ts): a native delegation's
// child run, or the lead's announce run continuing with its result. From the
// executions row opened (`running`, `execution_started`, status running,
// bounded by the run timeout) to one end: completed with its usage priced
// and metered, or failed, stopped, timed out or halted for a budget, with
// what had streamed kept and a note under its key. spawns.ts decides when a
// run starts and ends from the gateway's events; this file is what starting
// and ending one writes.
import { messageOf } from '../../errors.ts';
import type { EventInput } from '../../events/types.ts';
import type { TeamChatContext } from '../context.ts';
import { recordCompletion } from '../runs/completion.ts';
import { meterSpend } from '../budgets/run-budget.ts';
import { budgetStopReason } from '../budgets/budget-halt.ts';
import type { MeteredTarget } from '../budgets/call-meter.ts';
import { newTraceId } from '../runs/run.ts';
import type { RosterAgent } from '../routing/answerer.ts';
import type { RunUsage } from '../runs/usage.ts';

export const newSpanId = (): string => newTraceId().slice(0, 16);

export interface Tracked {
  kind: 'spawn' | 'announce';
  teamId: string;
  agent: RosterAgent;
  /** Whether the agent is one of svc's (its status is set; else it is a gateway id only). */
  known: boolean;
  gatewaySessionKey: string;
  sessionKey: string;
  runId: string;
  executionId: string;
  spanId: string;
  chainId: string;
  traceId: string;
  parentSpanId: string | null;
  parentExecutionId: string | null;
  taskId: string | null;
  parentRunId: string | null;
  parentSessionKey: string | null;
  label: string;
  text: string;
  timer: NodeJS.Timeout | null;
}

export interface TrackedRuns {
  /** Runs in flight, by gateway run id. */
  readonly runs: Map<string, Tracked>;
  /** Opens a tracked run; `before` writes what goes with its row in the same transaction (a hand-over). */
  open(t: Tracked, before: () => void): void;
  /** Takes the run out of flight (a second end of the same run finds nothing). */
  end(t: Tracked): void;
  /** A run that ended with its reply: its cost, its row completed, its reply entry; its unrouted spend metered. */
  complete(t: Tracked, usage: RunUsage): void;
  /** Ends a run that did not finish; true when this ended its row. */
  fail(t: Tracked, why: string, status: 'error' | 'cancelled'): boolean;
  /** A budget reached its cap during the run: it ends `cancelled` naming it, and is aborted at the gateway. */
  halt(t: Tracked, budgetLabel: string): void;
  abortAtGateway(sessionKey: string, runId: string | null): Promise<void>;
  /** The run as per-call metering sees it. */
  metered(t: Tracked): Omit<MeteredTarget, 'halt'> & { runId: string };
}

export function createTrackedRuns(ctx: TeamChatContext): TrackedRuns {
  const { domain } = ctx;
  const runs = new Map<string, Tracked>();

  const baseOf = (t: Pick<Tracked, 'teamId' | 'agent' | 'taskId' | 'traceId' | 'spanId' | 'parentSpanId' | 'chainId'>): Omit<EventInput, 'kind'> => ({
    teamId: t.teamId,
    agentId: t.agent.id,
    taskId: t.taskId,
    traceId: t.traceId,
    spanId: t.spanId,
    parentSpanId: t.parentSpanId,
    correlationId: t.chainId,
  });

  const abortAtGateway = (sessionKey: string, runId: string | null): Promise<void> =>
    ctx.gateway.request('chat.abort', runId ? { sessionKey, runId } : { sessionKey }, { timeoutMs: 5000, waitMs: 0 }).then(
      () => undefined,
      (err: unknown) => {
        // Best effort: the row is closed on svc's side either way; a gateway that is gone has nothing to abort.
        ctx.logger.warn({ err: messageOf(err), sessionKey }, 'team chat: chat.abort of a native delegation failed');
      },
    );

  const arm = (t: Tracked) => {
    t.timer = setTimeout(() => {
      if (runs.get(t.runId) !== t) return;
      void abortAtGateway(t.gatewaySessionKey, t.runId);
      fail(t, `timed out after ${ctx.runTimeoutMs} ms`, 'error');
    }, ctx.runTimeoutMs);
    t.timer.unref();
  };

  /** Opens a tracked run: its executions row `running`, `execution_started`, status running. */
  const open = (t: Tracked, before: () => void) => {
    runs.set(t.runId, t);
    ctx.tx.run(() => {
      before();
      ctx.executions.start({
        id: t.executionId,
        teamId: t.teamId,
        agentId: t.agent.id,
        sessionKey: t.sessionKey,
        runId: t.runId,
        taskId: t.taskId,
        trigger: t.kind,
        chainId: t.chainId,
        traceId: t.traceId,
        spanId: t.spanId,
        parentSpanId: t.parentSpanId,
        parentExecutionId: t.parentExecutionId,
        startedAt: ctx.now(),
      });
      if (t.known) domain.agents.setStatus(t.agent.id, 'running');
      ctx.eventLog.append({
        kind: 'execution_started',
        ...baseOf(t),
        data: { executionId: t.executionId, sessionKey: t.sessionKey, trigger: t.kind, runId: t.runId, parentExecutionId: t.parentExecutionId },
      });
    });
    ctx.emit('status', { teamId: t.teamId, agentId: t.agent.id, status: 'running' });
    arm(t);
  };

  /** Takes the run out of flight (a second end of the same run finds nothing). */
  function end(t: Tracked): void {
    runs.delete(t.runId);
    if (t.timer) clearTimeout(t.timer);
    t.timer = null;
  }

  const refsOf = (t: Tracked) => ({ parentRunId: t.parentRunId, parentSessionKey: t.parentSessionKey });

  function complete(t: Tracked, usage: RunUsage): void {
    if (ctx.closed()) return;
    const { unroutedUsd } = ctx.tx.run(() => {
      const done = recordCompletion(ctx, {
        executionId: t.executionId,
        teamId: t.teamId,
        agentId: t.agent.id,
        runId: t.runId,
        sessionKey: t.sessionKey,
        trigger: t.kind,
        usage,
        base: baseOf(t),
        completedData: { parentExecutionId: t.parentExecutionId },
        setIdle: t.known,
      });
      if (t.text !== '') {
        ctx.entries.reply({ teamId: t.teamId, agentId: t.agent.id, sessionKey: t.sessionKey, text: t.text, runId: t.runId, trigger: t.kind, taskId: t.taskId, ...refsOf(t), costUsd: done.costUsd });
      }
      return done;
    });
    ctx.emit('status', { teamId: t.teamId, agentId: t.agent.id, status: 'idle' });
    // Fallback metering of the gateway's own runs; a budget this pauses blocks their agents' next sends (run.ts).
    meterSpend(ctx, meteredOf(t), usage, unroutedUsd);
  }

  /** Ends a tracked run that did not finish: what streamed is kept, a note under its key, the row `status`. True when this ended the row. */
  function fail(t: Tracked, why: string, status: 'error' | 'cancelled'): boolean {
    if (runs.get(t.runId) !== t || ctx.closed()) return false;
    end(t);
    const reason = ctx.redactor.text(why);
    const what = t.kind === 'spawn' ? `${t.agent.name}'s work on “${t.label}”` : `${t.agent.name}'s follow-up on a delegated result`;
    const note = `${what} ended: ${reason}`;
    const ended = ctx.tx.run(() => {
      if (t.text !== '') {
        ctx.entries.reply({ teamId: t.teamId, agentId: t.agent.id, sessionKey: t.sessionKey, text: t.text, runId: t.runId, trigger: t.kind, taskId: t.taskId, ...refsOf(t) });
      }
      ctx.entries.meta({ teamId: t.teamId, agentId: t.agent.id, sessionKey: t.sessionKey, text: note, runId: t.runId, trigger: t.kind, ...refsOf(t) });
      if (!ctx.executions.finish(t.executionId, { status, endedAt: ctx.now(), error: reason })) return false;
      const base = baseOf(t);
      ctx.eventLog.append({ kind: 'execution_completed', ...base, data: { executionId: t.executionId, runId: t.runId, status, trigger: t.kind, parentExecutionId: t.parentExecutionId } });
      if (status === 'error') ctx.eventLog.append({ kind: 'error', ...base, data: { errorClass: 'TeamChatDelegationError', message: note, executionId: t.executionId } });
      if (t.known) domain.agents.setStatus(t.agent.id, status === 'error' ? 'error' : 'idle');
      return true;
    });
    ctx.emit('status', { teamId: t.teamId, agentId: t.agent.id, status: status === 'error' ? 'error' : 'idle' });
    return ended;
  }

  function haltTracked(t: Tracked, budgetLabel: string): void {
    if (fail(t, budgetStopReason(budgetLabel), 'cancelled')) void abortAtGateway(t.gatewaySessionKey, t.runId);
  }

  const meteredOf = (t: Tracked) => ({ scope: { agentId: t.agent.id, teamId: t.teamId, taskId: t.taskId }, base: baseOf(t), executionId: t.executionId, runId: t.runId });

  return { runs, open, end, complete, fail, halt: haltTracked, abortAtGateway, metered: meteredOf };
}
