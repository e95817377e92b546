// The facts a span needs from an event's `data` (JSON text, already masked at
// storage). Usage, cost and failure are read by shared/obs/event-data.ts, the
// same readers the built-in trace metrics use, so an exported span and the
// dashboard agree; the span's own fields (names, call ids, duration, error
// text) are read here. Every field is optional and a wrong-typed one is
// ignored (`.catch(undefined)`), so no payload can fail an export.
import { z } from 'zod';
import { parseData, toolFailed, usageOf } from '../obs/event-data.ts';
import { INFERENCE_OPERATIONS } from './genai.ts';

const count = z.number().nonnegative().optional().catch(undefined);
const text = z.string().min(1).optional().catch(undefined);
const hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`)).optional().catch(undefined);

const ErrorObject = z.object({ message: text }).catch({ message: undefined });

const SpanData = z
  .object({
    name: text, spanName: text,
    toolName: text, tool: text,
    toolCallId: text, callId: text, tool_call_id: text,
    durationMs: count,
    operation: z.enum(INFERENCE_OPERATIONS).optional().catch(undefined),
    // A model call's (shared/model-proxy/records.ts); `system` is the name rows written before v1.37 used.
    provider: text, system: text,
    requestModel: text, responseModel: text,
    maxTokens: z.number().int().positive().optional().catch(undefined),
    agentName: text, conversationId: text,
    outcome: text, errorType: text, budgetId: text,
    callerTraceId: hex(32), callerSpanId: hex(16),
    error: z.unknown().optional(),
    status: text,
  })
  .catch({});

export interface EventFacts {
  name?: string;
  toolName?: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  callId?: string;
  durationMs?: number;
  /** gen_ai.operation.name of a generic span (a model call: `chat`). */
  operation?: string;
  /** The upstream a model call went to, by svc's registry id (gen_ai.provider.name maps it). */
  provider?: string;
  /** The model as the provider was asked for it (no `<upstream>/`). */
  requestModel?: string;
  responseModel?: string;
  maxTokens?: number;
  agentName?: string;
  conversationId?: string;
  /** How a model call ended (model_calls' outcome, `unreachable` apart). */
  outcome?: string;
  errorType?: string;
  budgetId?: string;
  /** The caller's W3C context (its traceparent): the exported span's parent instead of svc's. */
  callerTraceId?: string;
  callerSpanId?: string;
  /** isError === true or ok === false. */
  failed: boolean;
  /** status is error, failed or failure. */
  statusError: boolean;
  errorMessage?: string;
}

const ERROR_STATUSES = new Set(['error', 'failed', 'failure']);
const MAX_MESSAGE = 256;

// Failed means what svc's own views count as failed (isError === true or
// ok === false, as the observability folds read tool results), so a span's
// status and the built-in error rate agree; a status word only marks spans
// and executions (see span-builder). The message is for display only.
function errorOf(d: z.infer<typeof SpanData>, failed: boolean): Pick<EventFacts, 'failed' | 'statusError' | 'errorMessage'> {
  const e = d.error;
  const message = typeof e === 'string' && e !== '' ? e : e !== null && typeof e === 'object' ? ErrorObject.parse(e).message : undefined;
  const statusError = ERROR_STATUSES.has(d.status?.toLowerCase() ?? '');
  return message === undefined ? { failed, statusError } : { failed, statusError, errorMessage: message.slice(0, MAX_MESSAGE) };
}

/** Facts from one row's data text; unknown and wrong-typed fields are ignored. */
export function eventFacts(data: string): EventFacts {
  const raw = parseData(data);
  const d = SpanData.parse(raw);
  const usage = usageOf(raw);
  return {
    name: d.name ?? d.spanName,
    toolName: d.toolName ?? d.tool ?? d.name,
    model: usage.model,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: usage.usd,
    callId: d.toolCallId ?? d.callId ?? d.tool_call_id,
    durationMs: d.durationMs,
    operation: d.operation,
    provider: d.provider ?? d.system,
    requestModel: d.requestModel,
    responseModel: d.responseModel,
    maxTokens: d.maxTokens,
    agentName: d.agentName,
    conversationId: d.conversationId,
    outcome: d.outcome,
    errorType: d.errorType,
    budgetId: d.budgetId,
    callerTraceId: d.callerTraceId,
    callerSpanId: d.callerSpanId,
    ...errorOf(d, toolFailed(raw)),
  };
}
