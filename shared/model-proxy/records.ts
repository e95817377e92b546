// What a model call leaves besides its model_calls row, all from that row's
// figures, written in one transaction. A call that spent: a cost record (at
// the price its settlement used, from the cost records' price book, which
// the call's estimate prices by too: `prices`), a `cost` event (source
// `svc-endpoint`) and the call's span as a span_start / span_end pair
// under the execution's trace (the cost event carries the span id, so the
// exported span holds the GenAI usage attributes), plus the `error` events
// of budget transitions. A call that spent nothing (refused at a cap, the
// provider's error, unreachable): its span alone, with its outcome, and the
// transitions' events. With routing on these are the only cost rows of a
// routed call: the team-chat worker skips the history messages of `svc-*`
// providers.
//
// The span rows' data carries what the OTLP export needs for the GenAI
// conventions (shared/otel/genai.ts): the model as the provider was asked
// for it, the provider, the request's max tokens, the outcome and its
// error.type, and the caller's W3C context (its traceparent), which the
// exported span takes as its parent. The rows' own trace columns stay svc's
// (the execution's), so svc's trace views are unchanged.
//
// The recorder builds the rows; a sink writes them. The endpoint's sink
// hands them to the ingest worker after the settlement commits (writing
// them cost the endpoint's thread more than the rest of a call), except
// rows carrying a budget transition, which are written at once.
import { z } from 'zod';
import { budgetEvents } from '../budgets/events.ts';
import type { BudgetTransition } from '../budgets/schemas.ts';
import type { CostRecords } from '../costs/index.ts';
import type { Tx } from '../db/tx.ts';
import type { EventLog } from '../events/event-log.ts';
import { EventInputSchema, type EventInput, type EventRow } from '../events/types.ts';
import { randomHex } from '../ids.ts';
import type { ModelCall } from '../model-calls/index.ts';
import { MODEL_CALL_ERROR_TEXT, modelCallErrorType, parseTraceparent, requestModelOf, type ModelCallOutcome } from '../otel/index.ts';
import type { PriceBook } from '../pricing/index.ts';
import type { CallContext } from './call-context.ts';

/** What every call's span is made of, whether it spent or not. */
export interface CallFacts {
  /** The model_calls row; null for a request refused before it had one. */
  id: string | null;
  agentId: string;
  ctx: CallContext;
  /** The trace of the call: svc's execution's, else the gateway's traceparent trace id. */
  traceId: string | null;
  /** The caller's `traceparent` header as received: the exported span's parent (ignored when malformed). */
  traceparent?: string | string[] | undefined;
  /** The upstream the call went to (the span's gen_ai.provider.name). */
  provider: string;
  /** `<upstream>/<model>` (gen_ai.request.model is the part after `<upstream>/`). */
  model: string | null;
  /** The request's own output limit (estimate.ts maxOutputTokensOf), null when it set none. */
  maxTokens?: number | null | undefined;
  /** The model the provider says answered, when it was read from the answer. */
  responseModel?: string | null | undefined;
  /** The provider's HTTP status (an upstream error's error.type). */
  httpStatus?: number | null | undefined;
  /** The budget that refused the call (gen_ai attributes have none: svc.budget_id). */
  budgetId?: string | null | undefined;
  startedAt: number;
  endedAt: number;
  durationMs: number;
}

export interface FinishedCall extends CallFacts {
  id: string;
  /** Cache reads and writes included. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outcome: 'ok' | 'cut' | 'aborted' | 'capped';
}

/** A call that spent nothing: refused at a cap or by the request rules, ended as a runaway, the provider's error, no provider answered. */
export interface UnspentCall extends CallFacts {
  /** `ended`: a turn svc ended at a runaway limit, before the provider. */
  outcome: 'refused' | 'rejected' | 'ended' | 'upstream_error' | 'unreachable';
}

/** A call's cost row, priced already (at the settlement's figure). */
export const CallCostSchema = z.object({
  agentId: z.string(),
  teamId: z.string().nullable(),
  runId: z.string().nullable(),
  sessionKey: z.string().nullable(),
  model: z.string().nullable(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});

/** What one call leaves besides its model_calls row: its cost row (a call that spent) and its events. */
export const CallRecordsSchema = z.object({ cost: CallCostSchema.nullable(), events: z.array(EventInputSchema) });
export type CallRecords = z.infer<typeof CallRecordsSchema>;

/** Where a call's records go: `now` for those the budget views read at once (a transition), else when the writer gets to them. */
export type CallRecordSink = (records: CallRecords, opts: { now: boolean }) => void;

export interface CallRecorderDeps {
  prices: PriceBook;
  sink: CallRecordSink;
}

export interface CallRecorder {
  /** The book the call is priced by: its estimate, settlement and cost row agree. */
  prices: PriceBook;
  /** Cost row, cost event and span of a call that spent `costUsd` (its settlement's figure). */
  spent(call: FinishedCall, transitions: readonly BudgetTransition[], costUsd: number): void;
  /** The span of a call that spent nothing, and the events of its transitions (a refusal's; none for the others). */
  unspent(call: UnspentCall, transitions: readonly BudgetTransition[]): void;
}

/** Writes calls' records in one transaction: the worker's path and this thread's. Returns the event rows written. */
export function writeCallRecords(deps: { tx: Tx; eventLog: Pick<EventLog, 'appendMany'>; costs: Pick<CostRecords, 'record'> }, batch: readonly CallRecords[]): EventRow[] {
  return deps.tx.run(() =>
    batch.flatMap((r) => {
      if (r.cost !== null) deps.costs.record(r.cost);
      return r.events.length > 0 ? deps.eventLog.appendMany(r.events) : [];
    }),
  );
}

/** The attribution columns of a call's events. */
export const eventBase = (agentId: string, ctx: CallContext, traceId: string | null): Omit<EventInput, 'kind' | 'data'> => ({
  agentId,
  teamId: ctx.teamId,
  taskId: ctx.taskId,
  traceId,
  parentSpanId: ctx.spanId,
});

type SpanRows = [EventInput, EventInput];

/** The span_start / span_end pair of one call, and its span id (the cost event's too). */
function spanRows(call: CallFacts & { outcome: ModelCallOutcome }): { spanId: string; rows: SpanRows } {
  const spanId = randomHex(8);
  const base = { ...eventBase(call.agentId, call.ctx, call.traceId), spanId, correlationId: call.id };
  const requestModel = call.model === null ? undefined : requestModelOf(call.model, call.provider);
  const name = requestModel === undefined ? 'chat' : `chat ${requestModel}`;
  const caller = parseTraceparent(call.traceparent);
  const callerIds = caller ? { callerTraceId: caller.traceId, callerSpanId: caller.spanId } : {};
  const { outcome } = call;
  const start = {
    name, model: call.model, requestModel, operation: 'chat', provider: call.provider,
    maxTokens: call.maxTokens ?? undefined, agentName: call.agentId, conversationId: call.ctx.sessionKey ?? undefined, ...callerIds,
  };
  const end = {
    name, model: call.model, requestModel, responseModel: call.responseModel ?? undefined, durationMs: call.durationMs,
    outcome, status: outcome === 'ok' ? 'ok' : 'error', httpStatus: call.httpStatus ?? undefined, budgetId: call.budgetId ?? undefined,
    ...(outcome === 'ok' ? {} : { errorType: modelCallErrorType(outcome, call.httpStatus), error: MODEL_CALL_ERROR_TEXT[outcome] }),
    ...callerIds,
  };
  return {
    spanId,
    rows: [
      { ...base, kind: 'span_start', ts: call.startedAt, data: start },
      { ...base, kind: 'span_end', ts: Math.max(call.endedAt, call.startedAt), data: end },
    ],
  };
}

/**
 * The span of a call svc stopped during (its row recovered `interrupted` at
 * the next start, recoverOpen), from what the row kept: the execution's
 * span id and the caller's traceparent were not stored, so it hangs under
 * the row's trace, without a parent.
 */
export function interruptedSpan(call: ModelCall, endedAt: number): EventInput[] {
  const ctx: CallContext = {
    sessionKey: call.sessionKey, executionSessionKey: null, teamId: call.teamId, taskId: call.taskId,
    teamIds: call.teamId === null ? [] : [call.teamId], taskIds: call.taskId === null ? [] : [call.taskId],
    runId: call.runId, executionId: null, traceId: call.traceId, spanId: null,
  };
  const startedAt = Date.parse(call.startedAt);
  const model = call.model === '' ? null : `${call.provider}/${call.model}`;
  return spanRows({
    id: call.id, agentId: call.agentId, ctx, traceId: call.traceId, provider: call.provider, model,
    startedAt, endedAt, durationMs: Math.max(0, endedAt - startedAt), outcome: 'interrupted',
  }).rows;
}

export function createCallRecorder(deps: CallRecorderDeps): CallRecorder {
  return {
    prices: deps.prices,
    spent(call, transitions, costUsd) {
      const base = eventBase(call.agentId, call.ctx, call.traceId);
      const { spanId, rows: [start, end] } = spanRows(call);
      const usage = { model: call.model, inputTokens: call.inputTokens, outputTokens: call.outputTokens };
      const budget = budgetEvents(transitions, base);
      deps.sink(
        {
          cost: {
            agentId: call.agentId, teamId: call.ctx.teamId, runId: call.ctx.runId, sessionKey: call.ctx.sessionKey, model: call.model,
            inputTokens: call.inputTokens, outputTokens: call.outputTokens, cacheReadTokens: call.cacheReadTokens, cacheWriteTokens: call.cacheWriteTokens,
            costUsd,
          },
          events: [
            start,
            { ...base, kind: 'cost', ts: call.endedAt, spanId, correlationId: call.id, data: { modelCallId: call.id, runId: call.ctx.runId, ...usage, usd: costUsd, source: 'svc-endpoint' } },
            end,
            ...budget,
          ],
        },
        { now: budget.length > 0 },
      );
    },
    unspent(call, transitions) {
      const budget = budgetEvents(transitions, eventBase(call.agentId, call.ctx, call.traceId));
      deps.sink({ cost: null, events: [...spanRows(call).rows, ...budget] }, { now: budget.length > 0 });
    },
  };
}
