// Contract of the ingest worker: it writes client-ingested event batches
// (POST /api/obs/ingest) on its own connection, so the front door's thread
// never blocks on a batch's write and keeps serving reads meanwhile (WAL:
// readers are not blocked by the writer). It answers with the committed
// rows, which the supervisor hands to the live fan-out.
import { z } from 'zod';
import { defineContract } from './contract.ts';
import { EventRowSchema } from './tail.ts';
import { EventKind } from '../events/kinds.ts';

const id = z.string().nullable().optional();

export const EventInputSchema = z.object({
  kind: EventKind,
  ts: z.number().optional(),
  id: z.string().optional(),
  teamId: id,
  taskId: id,
  agentId: id,
  runtime: id,
  traceId: id,
  spanId: id,
  parentSpanId: id,
  correlationId: id,
  data: z.unknown().optional(),
  tenantId: id,
});

const Empty = z.object({}).strict();

export const ingestContract = defineContract({
  name: 'ingest',
  requests: {
    /** Appends the events in one transaction; the committed rows come back. */
    append: { payload: z.object({ events: z.array(EventInputSchema).max(1000) }), result: z.object({ rows: z.array(EventRowSchema) }) },
    /** Close the database; the worker then exits. */
    stop: { payload: Empty, result: Empty },
  },
  events: {
    /** The worker serves its channel (sent once per start): until then batches are written by the supervisor. */
    ready: Empty,
  },
});

export const IngestWorkerData = z.object({ dbPath: z.string() });
