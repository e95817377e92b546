// Contract of the ingest worker: it parses and writes client-ingested event
// batches (POST /api/obs/ingest) on its own connection, so the front door's
// thread neither parses a batch nor blocks on its write and keeps serving
// reads meanwhile (WAL: readers are not blocked by the writer). It answers
// with the committed rows, which the supervisor hands to the live fan-out.
import { z } from 'zod';
import { defineContract } from './contract.ts';
import { EventRowSchema } from './tail.ts';

const Empty = z.object({}).strict();

export const ingestContract = defineContract({
  name: 'ingest',
  requests: {
    /**
     * A POST /api/obs/ingest body, as its bytes: parsed and normalized here
     * (shared/events/ingest.ts), appended in one transaction; the committed
     * rows come back, or `badJson` when the body is not JSON.
     */
    appendBody: {
      payload: z.object({ body: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'bytes'), now: z.number() }),
      result: z.union([z.object({ rows: z.array(EventRowSchema) }), z.object({ badJson: z.literal(true) })]),
    },
    /** Counters since the worker started: batches written, events in them, bodies refused as not JSON. */
    stats: { payload: Empty, result: z.object({ batches: z.number().int(), events: z.number().int(), badBodies: z.number().int() }) },
    /** Close the database; the worker then exits. */
    stop: { payload: Empty, result: Empty },
  },
  events: {
    /** The worker serves its channel (sent once per start): until then batches are written by the supervisor. */
    ready: Empty,
  },
});

export const IngestWorkerData = z.object({ dbPath: z.string() });
