// The facts a span needs from an event's `data` (JSON text, already masked at
// storage). The per-kind payload shapes are not fixed by the spec, so the
// common spellings are accepted (camelCase, snake_case, a nested `usage` as
// model APIs return it); every field is optional and a wrong-typed one is
// ignored (`.catch(undefined)`), so no payload can fail an export.
import { z } from 'zod';

const count = z.number().nonnegative().optional().catch(undefined);
const text = z.string().min(1).optional().catch(undefined);
const flag = z.boolean().optional().catch(undefined);

const Usage = z
  .object({
    input_tokens: count, inputTokens: count, prompt_tokens: count,
    output_tokens: count, outputTokens: count, completion_tokens: count,
  })
  .optional()
  .catch(undefined);

const ErrorObject = z.object({ message: text }).catch({ message: undefined });

const EventData = z
  .object({
    name: text, spanName: text,
    toolName: text, tool: text,
    model: text, modelId: text,
    inputTokens: count, input_tokens: count,
    outputTokens: count, output_tokens: count,
    costUsd: count, cost_usd: count, usd: count,
    usage: Usage,
    toolCallId: text, callId: text, tool_call_id: text,
    durationMs: count,
    error: z.unknown().optional(),
    isError: flag, ok: flag,
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
  /** isError === true or ok === false. */
  failed: boolean;
  /** status is error, failed or failure. */
  statusError: boolean;
  errorMessage?: string;
}

const ERROR_STATUSES = new Set(['error', 'failed', 'failure']);
const MAX_MESSAGE = 256;

function parseJson(textValue: string): unknown {
  try {
    return JSON.parse(textValue);
  } catch {
    // Rows are written by svc as JSON; unparsable text only means no facts.
    return {};
  }
}

// Failed means what svc's own views count as failed (isError === true or
// ok === false, as the observability folds read tool results), so a span's
// status and the built-in error rate agree; a status word only marks spans
// and executions (see span-builder). The message is for display only.
function errorOf(d: z.infer<typeof EventData>): Pick<EventFacts, 'failed' | 'statusError' | 'errorMessage'> {
  const e = d.error;
  const message = typeof e === 'string' && e !== '' ? e : e !== null && typeof e === 'object' ? ErrorObject.parse(e).message : undefined;
  const failed = d.isError === true || d.ok === false;
  const statusError = ERROR_STATUSES.has(d.status?.toLowerCase() ?? '');
  return message === undefined ? { failed, statusError } : { failed, statusError, errorMessage: message.slice(0, MAX_MESSAGE) };
}

/** Facts from one row's data text; unknown and wrong-typed fields are ignored. */
export function eventFacts(data: string): EventFacts {
  const d = EventData.parse(parseJson(data));
  const u = d.usage;
  const facts: EventFacts = {
    name: d.name ?? d.spanName,
    toolName: d.toolName ?? d.tool ?? d.name,
    model: d.model ?? d.modelId,
    inputTokens: d.inputTokens ?? d.input_tokens ?? u?.input_tokens ?? u?.inputTokens ?? u?.prompt_tokens,
    outputTokens: d.outputTokens ?? d.output_tokens ?? u?.output_tokens ?? u?.outputTokens ?? u?.completion_tokens,
    costUsd: d.costUsd ?? d.cost_usd ?? d.usd,
    callId: d.toolCallId ?? d.callId ?? d.tool_call_id,
    durationMs: d.durationMs,
    ...errorOf(d),
  };
  return facts;
}
