// What a finished model call leaves besides its model_calls row, all from
// that row's figures, in one transaction: a cost record (priced by the cost
// records' price book, which the call's estimate and settlement use too:
// `prices`), a `cost` event (source `svc-endpoint`) and the call's
// span as a span_start / span_end pair under the execution's trace (the cost
// event carries the span id, so the exported span holds the GenAI usage
// attributes), plus the `error` events of budget transitions. With routing
// on these are the only cost rows of a routed call: the team-chat worker
// skips the history messages of `svc-*` providers.
import { randomBytes } from 'node:crypto';
import { budgetEvents } from '../budgets/events.ts';
import type { BudgetTransition } from '../budgets/schemas.ts';
import type { CostRecords } from '../costs/index.ts';
import type { Tx } from '../db/tx.ts';
import type { EventLog } from '../events/event-log.ts';
import type { EventInput } from '../events/types.ts';
import type { PriceBook } from '../pricing/index.ts';
import type { CallContext } from './call-context.ts';

export interface FinishedCall {
  id: string;
  agentId: string;
  ctx: CallContext;
  /** The trace of the call: svc's execution's, else the gateway's traceparent trace id. */
  traceId: string | null;
  /** The upstream the call went to (the span's gen_ai.system). */
  provider: string;
  /** `<upstream>/<model>`. */
  model: string | null;
  /** Cache reads and writes included. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  startedAt: number;
  endedAt: number;
  durationMs: number;
  outcome: string;
}

export interface CallRecorderDeps {
  tx: Tx;
  eventLog: Pick<EventLog, 'appendMany'>;
  costs: Pick<CostRecords, 'record' | 'prices'>;
}

export interface CallRecorder {
  /** The book the cost record is priced by: the call's estimate and settlement price by it too, so all three agree. */
  prices: PriceBook;
  /** Cost record, cost event and span of a call that spent; returns the priced USD. */
  spent(call: FinishedCall, transitions: readonly BudgetTransition[]): number;
  /** The events of transitions alone (a refusal, a release). */
  transitions(base: Omit<EventInput, 'kind' | 'data'>, transitions: readonly BudgetTransition[]): void;
}

/** The attribution columns of a call's events. */
export const eventBase = (agentId: string, ctx: CallContext, traceId: string | null): Omit<EventInput, 'kind' | 'data'> => ({
  agentId,
  teamId: ctx.teamId,
  taskId: ctx.taskId,
  traceId,
  parentSpanId: ctx.spanId,
});

export function createCallRecorder(deps: CallRecorderDeps): CallRecorder {
  const { tx, eventLog, costs } = deps;
  return {
    prices: costs.prices,
    spent(call, transitions) {
      const spanId = randomBytes(8).toString('hex');
      const base = eventBase(call.agentId, call.ctx, call.traceId);
      const name = `chat ${call.model ?? 'unknown'}`;
      return tx.run(() => {
        const cost = costs.record({
          agentId: call.agentId,
          teamId: call.ctx.teamId,
          runId: call.ctx.runId,
          sessionKey: call.ctx.sessionKey,
          model: call.model,
          inputTokens: call.inputTokens,
          outputTokens: call.outputTokens,
          cacheReadTokens: call.cacheReadTokens,
          cacheWriteTokens: call.cacheWriteTokens,
        });
        const usage = { model: call.model, inputTokens: call.inputTokens, outputTokens: call.outputTokens };
        eventLog.appendMany([
          { ...base, kind: 'span_start', ts: call.startedAt, spanId, correlationId: call.id, data: { name, model: call.model, operation: 'chat', system: call.provider } },
          {
            ...base,
            kind: 'cost',
            ts: call.endedAt,
            spanId,
            correlationId: call.id,
            data: { modelCallId: call.id, runId: call.ctx.runId, ...usage, usd: cost.costUsd, source: 'svc-endpoint' },
          },
          {
            ...base,
            kind: 'span_end',
            ts: call.endedAt,
            spanId,
            correlationId: call.id,
            data: { name, model: call.model, durationMs: call.durationMs, outcome: call.outcome, status: call.outcome === 'ok' ? 'ok' : 'error' },
          },
          ...budgetEvents(transitions, base),
        ]);
        return cost.costUsd;
      });
    },
    transitions(base, transitions) {
      const events = budgetEvents(transitions, base);
      if (events.length > 0) eventLog.appendMany(events);
    },
  };
}
