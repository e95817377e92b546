// Stop (spec "Team chat run effects"): a team's runs are aborted at the
// gateway and their rows become `cancelled`; the tasks the orchestrator
// claimed and still `in_progress` go back to `todo`; queued deliveries are
// dropped, a queued delegation getting a `cancelled` row of its own (so it is
// never delivered again by itself); statuses go back to `idle`.
import { messageOf } from '../errors.ts';
import { uuidv7 } from '../ids.ts';
import type { StopCounts, TeamChatContext } from './context.ts';
import type { ExchangeState } from './room/exchange.ts';
import { abortQuietly, newTraceId, type RunHandle } from './runs/run.ts';
import { sessionKeyOf } from './routing/answerer.ts';
import type { Delivery } from './work.ts';

/** What a team's orchestrator has going: a stop empties it. */
export interface TeamWork {
  queues: Map<string, Delivery[]>;
  running: Map<string, { delivery: Delivery; handle: RunHandle }>;
  exchanges: Set<ExchangeState>;
  /** Tasks the orchestrator claimed and has not settled. */
  claimed: Set<string>;
}

export async function stopTeam(ctx: TeamChatContext, teamId: string, work: TeamWork): Promise<StopCounts> {
  const { queues, running, exchanges, claimed } = work;
  const counts: StopCounts = { aborted: 0, released: 0, dropped: 0, cancelled: 0 };
  const t = ctx.now();
  const handles: RunHandle[] = [...running.values()].map((r) => r.handle);
  for (const ex of exchanges) {
    ex.stopped = true;
    if (ex.handle) handles.push(ex.handle);
  }
  const idleAgents = new Set<string>();
  ctx.tx.run(() => {
    for (const q of queues.values()) {
      for (const d of q.splice(0)) {
        counts.dropped++;
        if (d.trigger !== 'delegation' || !d.taskId) continue;
        ctx.executions.insertCancelled(
          {
            id: uuidv7(t),
            teamId,
            agentId: d.agent.id,
            sessionKey: sessionKeyOf(d.agent, teamId),
            taskId: d.taskId,
            trigger: d.trigger,
            chainId: d.chain.id,
            traceId: d.chain.traceId,
            spanId: newTraceId().slice(0, 16),
            parentSpanId: d.parentSpanId,
            startedAt: t,
          },
          t,
        );
        counts.cancelled++;
      }
    }
    for (const h of handles) {
      h.stopped = true;
      h.abort.abort();
      if (!ctx.executions.finish(h.executionId, { status: 'cancelled', endedAt: t, error: 'stopped by the user' })) continue;
      counts.aborted++;
      counts.cancelled++;
      ctx.eventLog.append({
        kind: 'execution_completed',
        teamId,
        agentId: h.spec.agent.id,
        taskId: h.spec.taskId,
        traceId: h.spec.traceId,
        spanId: h.spanId,
        parentSpanId: h.spec.parentSpanId,
        correlationId: h.spec.chainId,
        data: { executionId: h.executionId, runId: h.runId, status: 'cancelled', trigger: h.spec.trigger },
      });
      ctx.domain.agents.setStatus(h.spec.agent.id, 'idle');
      idleAgents.add(h.spec.agent.id);
    }
  });
  await Promise.all(handles.map((h) => abortQuietly(ctx, h)));
  for (const taskId of claimed) {
    const task = ctx.domain.board.get(taskId);
    if (task?.status !== 'in_progress') continue;
    try {
      ctx.domain.board.update(taskId, { status: 'todo' });
      counts.released++;
    } catch (err) {
      ctx.logger.warn({ err: messageOf(err), taskId }, 'team chat: could not release a task on stop');
    }
  }
  claimed.clear();
  for (const agentId of idleAgents) ctx.emit('status', { teamId, agentId, status: 'idle' });
  return counts;
}
