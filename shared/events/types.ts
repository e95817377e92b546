// The orchestration event row as the spec names it (camelCase on the wire,
// snake_case in SQL), and the input accepted by appendEvent(). The row's
// schema is its one source: the type is inferred from it, and the channels
// that carry rows across threads (tail, ingest) validate with it.
import { z } from 'zod';
import { EventKind } from './kinds.ts';

const nullableString = z.string().nullable();

export const EventRowSchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  ts: z.number(),
  kind: EventKind,
  teamId: nullableString,
  taskId: nullableString,
  agentId: nullableString,
  runtime: nullableString,
  traceId: nullableString,
  spanId: nullableString,
  parentSpanId: nullableString,
  correlationId: nullableString,
  /** JSON text, credential-shaped keys and values masked, and the exact secrets the writer knew (event-log.ts). */
  data: z.string(),
  tenantId: nullableString,
  createdAt: z.number(),
});
export type EventRow = z.infer<typeof EventRowSchema>;

export interface EventInput {
  kind: EventKind;
  ts?: number;
  id?: string;
  teamId?: string | null;
  taskId?: string | null;
  agentId?: string | null;
  runtime?: string | null;
  traceId?: string | null;
  spanId?: string | null;
  parentSpanId?: string | null;
  correlationId?: string | null;
  data?: unknown;
  tenantId?: string | null;
}

/** Columns in spec order, with the SQL alias that yields the wire name. */
export const EVENT_COLUMNS_SQL = `seq, id, ts, kind, team_id AS teamId, task_id AS taskId, agent_id AS agentId,
  runtime, trace_id AS traceId, span_id AS spanId, parent_span_id AS parentSpanId,
  correlation_id AS correlationId, data, tenant_id AS tenantId, created_at AS createdAt`;
