// The orchestration event row as the spec names it (camelCase on the wire,
// snake_case in SQL), and the input accepted by appendEvent(). Each schema is
// its type's one source: the types are inferred from them, and the channels
// that carry rows or inputs across threads (tail, ingest) validate with them.
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

const optionalNullable = z.string().nullable().optional();

/** What a writer gives the event log (appendEvent): the row without its seq, masked data or defaults. */
export const EventInputSchema = z.object({
  kind: EventKind,
  ts: z.number().optional(),
  id: z.string().optional(),
  teamId: optionalNullable,
  taskId: optionalNullable,
  agentId: optionalNullable,
  runtime: optionalNullable,
  traceId: optionalNullable,
  spanId: optionalNullable,
  parentSpanId: optionalNullable,
  correlationId: optionalNullable,
  data: z.unknown().optional(),
  tenantId: optionalNullable,
});
export type EventInput = z.infer<typeof EventInputSchema>;

/** Columns in spec order, with the SQL alias that yields the wire name. */
export const EVENT_COLUMNS_SQL = `seq, id, ts, kind, team_id AS teamId, task_id AS taskId, agent_id AS agentId,
  runtime, trace_id AS traceId, span_id AS spanId, parent_span_id AS parentSpanId,
  correlation_id AS correlationId, data, tenant_id AS tenantId, created_at AS createdAt`;
