// Span attributes from the rows that opened and closed a span. Only columns
// of those rows and figures derived from them (tokens, USD): the data text
// is masked at storage and nothing else from it is copied, so no secret can
// reach a collector. Names: svc.* for svc's own columns, gen_ai.* and
// error.type from the OpenTelemetry GenAI semantic conventions at the
// version pinned in genai.ts (v1.37.0), which Langfuse and Phoenix read.
import type { EventRow } from '../events/types.ts';
import type { EventFacts } from './event-data.ts';
import { ATTR, isInference, providerName, requestModelOf } from './genai.ts';

export type SpanFamily = 'span' | 'execution' | 'tool';
export type Attributes = Record<string, string | number | boolean>;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  model: string | undefined;
}

export interface AttributeSource {
  family: SpanFamily;
  start: EventRow;
  end: EventRow;
  toolName: string | undefined;
  model: string | undefined;
  /** A generic span's own operation (a model call's `chat`). */
  operation?: string | undefined;
  /** A model call's facts (shared/model-proxy/records.ts), from its start and end rows. */
  call?: ModelCallFacts | undefined;
  usage: Usage | null;
  unmatched: boolean;
}

/** What a model call's rows say beyond the columns: request facts from the start, outcome facts from the end. */
export type ModelCallFacts = Pick<
  EventFacts,
  'provider' | 'requestModel' | 'responseModel' | 'maxTokens' | 'agentName' | 'conversationId' | 'outcome' | 'errorType' | 'budgetId'
>;

const OPERATION: Record<SpanFamily, string | null> = { span: null, execution: 'invoke_agent', tool: 'execute_tool' };

export function attributesOf({ family, start, end, toolName, model, operation, call, usage, unmatched }: AttributeSource): Attributes {
  const a: Attributes = { 'svc.span_kind': family, 'svc.start_seq': start.seq, 'svc.end_seq': end.seq };
  const set = (key: string, value: string | number | boolean | null | undefined) => {
    if (value !== null && value !== undefined) a[key] = value;
  };
  // Columns from the start row, else the end row (an unmatched end has only itself).
  const col = <K extends keyof EventRow>(k: K) => start[k] ?? end[k];
  set('svc.team_id', col('teamId'));
  set('svc.task_id', col('taskId'));
  set('svc.agent_id', col('agentId'));
  set('svc.runtime', col('runtime'));
  set('svc.tenant_id', col('tenantId'));
  set('svc.correlation_id', col('correlationId'));
  // svc's original ids, for finding the rows again when the OTel ids are hashes.
  set('svc.trace_id', col('traceId'));
  set('svc.span_id', col('spanId'));
  set('svc.parent_span_id', col('parentSpanId'));
  const op = OPERATION[family] ?? operation;
  set(ATTR.operationName, op);
  if (family !== 'span') set(ATTR.agentId, col('agentId'));
  if (family === 'tool') set(ATTR.toolName, toolName);
  const asked = model ?? usage?.model;
  if (family === 'span' && isInference(op)) {
    // A model call: a CLIENT span by the conventions' inference-span rules.
    set(ATTR.providerName, call?.provider === undefined ? undefined : providerName(call.provider));
    set('svc.upstream', call?.provider);
    set(ATTR.requestModel, call?.requestModel ?? (asked === undefined ? undefined : requestModelOf(asked, call?.provider)));
    set(ATTR.responseModel, call?.responseModel);
    set(ATTR.requestMaxTokens, call?.maxTokens);
    set(ATTR.agentId, col('agentId'));
    set(ATTR.agentName, call?.agentName ?? col('agentId'));
    set(ATTR.conversationId, call?.conversationId);
    // Rows written before error.type was: the outcome says it.
    set(ATTR.errorType, call?.errorType ?? (call?.outcome !== undefined && call.outcome !== 'ok' ? call.outcome : undefined));
    set('svc.outcome', call?.outcome);
    set('svc.budget_id', call?.budgetId);
  } else {
    set(ATTR.requestModel, asked);
  }
  if (usage) {
    a[ATTR.usageInputTokens] = usage.inputTokens;
    a[ATTR.usageOutputTokens] = usage.outputTokens;
    a['svc.cost_usd'] = usage.costUsd;
  }
  if (unmatched) a['svc.unmatched_end'] = true;
  return a;
}
