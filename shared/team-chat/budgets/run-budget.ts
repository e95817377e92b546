// A run under budgets (issue 22, docs/team-chat.md, "Budgets"; the notes and the
// gate are in budget-halt.ts): the check before each send, fallback metering
// at a run's end of the spend svc's model endpoint did not see and per-call
// metering (call-meter.ts) did not count, the halt of a running turn,
// and how a halted or blocked turn ends: `cancelled` with the budget as its
// error (svc stopped it on purpose, as a stop does; not a failure of the run).
import type { EventInput } from '../../events/types.ts';
import type { MeteredTarget } from './call-meter.ts';
import type { TeamChatContext } from '../context.ts';
import { budgetEntryId, budgetStopReason, budgetStopText, type BudgetStop, type RunScope } from './budget-halt.ts';
import { readRunUsage, recordCompletion } from '../runs/completion.ts';
import type { RunHandle, RunOutcome, RunSpec } from '../runs/run-types.ts';
import type { RosterAgent } from '../routing/answerer.ts';
import { abortQuietly, keepStreamed, runEventBase } from '../runs/run-parts.ts';
import { teamSessionKey } from '../session-keys.ts';
import { noUsage, type RunUsage } from '../runs/usage.ts';

/** The scope a run spends under: its agent, team and task (the model: every budget's, or the calls'). */
export const runScope = (spec: RunSpec, model: string | null): RunScope => ({ agentId: spec.agent.id, teamId: spec.teamId, taskId: spec.taskId, model });

/** The paused cap budget that stops this run's next send, if any; a failing check lets the send go (logged): the endpoint still refuses. */
export function checkBudgets(ctx: TeamChatContext, h: RunHandle): BudgetStop | null {
  if (!ctx.budgets) return null;
  try {
    return ctx.budgets.blockedBy(runScope(h.spec, null));
  } catch (err) {
    ctx.logger.error({ err, executionId: h.executionId }, 'team chat: budget check failed; the send goes ahead');
    return null;
  }
}

/**
 * Fallback metering (routing off, or a provider svc cannot stand in front of): the run's unrouted
 * spend goes into every budget that applies; warnings and pauses become events. Returns the budget that stops the run (paused by this spend, or already paused).
 */
export function meterSpend(
  ctx: TeamChatContext,
  run: { scope: Omit<RunScope, 'model'>; base: Omit<EventInput, 'kind'>; executionId: string; runId: string | null },
  usage: RunUsage,
  runUsd: number,
): BudgetStop | null {
  // The calls metered one by one as they ended (call-meter.ts) are not spent twice.
  const usd = runUsd - (run.runId ? ctx.takeMetered(run.runId) : 0);
  if (!ctx.budgets || usd <= 1e-12) return null;
  try {
    return ctx.budgets.recordSpend({ ...run.scope, model: usage.unrouted.model ?? usage.model }, usd, run.base);
  } catch (err) {
    // The cost record is written; only the budget missed this spend. Loud: a budget that misses spend lets spend through.
    ctx.logger.error({ err, executionId: run.executionId, usd }, 'team chat: budget metering of a run failed');
    return null;
  }
}

/** What meterSpend needs of one of svc's own runs. */
export const meteredRun = (h: Pick<RunHandle, 'spec' | 'spanId' | 'executionId' | 'runId'>) => ({
  scope: runScope(h.spec, null),
  base: runEventBase(h.spec, h.spanId),
  executionId: h.executionId,
  runId: h.runId,
});

/** A running turn as per-call metering sees it (call-meter.ts): its spend's scope, and its halt. */
export function meterTarget(ctx: TeamChatContext, h: RunHandle, onHalt: () => void): MeteredTarget {
  return {
    ...meteredRun(h),
    halt(stop) {
      onHalt();
      haltRun(ctx, h, stop);
    },
  };
}

/** The note naming the budget, once per budget and run; a run outside the transcript (an exchange turn) notes it in the agent's team transcript. */
export function budgetNote(ctx: TeamChatContext, h: Pick<RunHandle, 'spec' | 'runId' | 'executionId'>, stop: BudgetStop): void {
  const { spec } = h;
  ctx.entries.meta({
    teamId: spec.teamId,
    agentId: spec.agent.id,
    sessionKey: spec.transcript ? spec.sessionKey : teamSessionKey(spec.agent.id, spec.teamId),
    text: budgetStopText(spec.agent.name, stop.budgetLabel),
    runId: h.runId,
    entryId: budgetEntryId(stop.budgetId, h.runId ?? h.executionId),
  });
}

/** How long after a run's end a halt still notes it: a refusal is a normal completion, so the run may end a moment before its halt comes. */
export const LATE_HALT_MS = 60_000;

/**
 * A halt that came just after the refused run ended (nothing left to abort): the note is written
 * for that run all the same, once. Returns the run's chain id, or null when no run of that
 * agent ended within LATE_HALT_MS.
 */
export function noteEndedRun(ctx: TeamChatContext, teamId: string, agent: RosterAgent, stop: BudgetStop): string | null {
  const last = ctx.executions.lastOf(teamId, agent.id);
  if (!last || last.endedAt === null || ctx.now() - last.endedAt > LATE_HALT_MS) return null;
  ctx.tx.run(() =>
    ctx.entries.meta({
      teamId,
      agentId: agent.id,
      sessionKey: last.sessionKey,
      text: budgetStopText(agent.name, stop.budgetLabel),
      runId: last.runId,
      entryId: budgetEntryId(stop.budgetId, last.runId ?? last.id),
    }),
  );
  return last.chainId;
}

/**
 * Halts a running turn for a budget (the model endpoint refused one of its calls): the note now, the
 * abort at the gateway; the run's own end then closes its row (halted()). A second halt does nothing.
 */
export function haltRun(ctx: TeamChatContext, h: RunHandle, stop: BudgetStop): void {
  if (h.halted || h.stopped) return;
  h.halted = stop;
  ctx.tx.run(() => budgetNote(ctx, h, stop));
  h.abort.abort();
  void abortQuietly(ctx, h);
}

/**
 * A halted run ends `cancelled` with the budget as its error: what streamed is kept, the calls it made
 * are on its row (and its unrouted ones recorded and metered), the agent back to idle.
 */
export async function halted(ctx: TeamChatContext, h: RunHandle): Promise<RunOutcome> {
  const { spec } = h;
  const stop = h.halted as BudgetStop;
  const reason = budgetStopReason(stop.budgetLabel);
  const usage = h.runId ? await readRunUsage(ctx, spec.gatewaySessionKey, h.runId) : noUsage();
  const { unroutedUsd } = ctx.tx.run(() => {
    keepStreamed(ctx, h);
    return recordCompletion(ctx, {
      executionId: h.executionId,
      teamId: spec.teamId,
      agentId: spec.agent.id,
      runId: h.runId,
      sessionKey: spec.sessionKey,
      trigger: spec.trigger,
      usage,
      base: runEventBase(spec, h.spanId),
      setIdle: true,
      haltedBy: reason,
    });
  });
  ctx.emit('status', { teamId: spec.teamId, agentId: spec.agent.id, status: 'idle' });
  meterSpend(ctx, meteredRun(h), usage, unroutedUsd);
  return { state: 'error', text: h.text, error: reason, runId: h.runId, budgetStop: stop };
}

/** A turn a paused budget blocks before its send: no model call; the note, the row `cancelled` naming the budget. */
export function blocked(ctx: TeamChatContext, h: RunHandle, stop: BudgetStop): RunOutcome {
  const { spec } = h;
  const reason = budgetStopReason(stop.budgetLabel);
  ctx.tx.run(() => {
    keepStreamed(ctx, h);
    budgetNote(ctx, h, stop);
    if (ctx.executions.finish(h.executionId, { status: 'cancelled', endedAt: ctx.now(), error: reason })) {
      ctx.eventLog.append({
        kind: 'execution_completed',
        ...runEventBase(spec, h.spanId),
        data: { executionId: h.executionId, runId: h.runId, status: 'cancelled', trigger: spec.trigger, error: reason },
      });
      ctx.domain.agents.setStatus(spec.agent.id, 'idle');
    }
  });
  ctx.emit('status', { teamId: spec.teamId, agentId: spec.agent.id, status: 'idle' });
  return { state: 'error', text: h.text, error: reason, runId: h.runId, budgetStop: stop };
}
