// Span attributes from the rows that opened and closed a span. Only columns
// of those rows and figures derived from them (tokens, USD): the data text
// is masked at storage and nothing else from it is copied, so no secret can
// reach a collector. Names: svc.* for svc's own columns, gen_ai.* from the
// OpenTelemetry GenAI semantic conventions, which Langfuse and Phoenix read.
import type { EventRow } from '../events/types.ts';

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
  /** A generic span's own operation and provider (a model call's `chat` and its upstream). */
  operation?: string | undefined;
  system?: string | undefined;
  usage: Usage | null;
  unmatched: boolean;
}

const OPERATION: Record<SpanFamily, string | null> = { span: null, execution: 'invoke_agent', tool: 'execute_tool' };

export function attributesOf({ family, start, end, toolName, model, operation, system, usage, unmatched }: AttributeSource): Attributes {
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
  set('gen_ai.operation.name', OPERATION[family] ?? operation);
  set('gen_ai.system', system);
  if (family !== 'span') set('gen_ai.agent.id', col('agentId'));
  if (family === 'tool') set('gen_ai.tool.name', toolName);
  set('gen_ai.request.model', model ?? usage?.model);
  if (usage) {
    a['gen_ai.usage.input_tokens'] = usage.inputTokens;
    a['gen_ai.usage.output_tokens'] = usage.outputTokens;
    a['svc.cost_usd'] = usage.costUsd;
  }
  if (unmatched) a['svc.unmatched_end'] = true;
  return a;
}
