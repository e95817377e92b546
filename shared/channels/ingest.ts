// Contract of the ingest worker: it parses and writes client-ingested event
// batches (POST /api/obs/ingest), and the records of model calls through
// svc's endpoint, on its own connection, so the front door's thread neither
// parses a batch nor blocks on its write and keeps serving reads meanwhile (WAL: readers are not blocked by the writer). It answers
// with the committed rows, which the supervisor hands to the live fan-out.
// Each batch carries the exact secret values svc holds at that moment, so the
// worker masks them in event data as the supervisor's own writes do (they
// stay in this process: a worker thread is part of it).
import { z } from 'zod';
import { defineContract } from './contract.ts';
import { EventRowSchema } from '../events/types.ts';
import { CallRecordsSchema } from '../model-proxy/records.ts';

const Empty = z.object({}).strict();

export const ingestContract = defineContract({
  name: 'ingest',
  requests: {
    /**
     * A POST /api/obs/ingest body, as its bytes: parsed and normalized here
     * (shared/events/ingest.ts), appended in one transaction with its
     * idempotency key if any; the committed rows come back, or why nothing
     * was written (IngestOutcome).
     */
    appendBody: {
      payload: z.object({
        body: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'bytes'),
        now: z.number(),
        key: z.string().optional(),
        secrets: z.array(z.string()),
      }),
      result: z.union([
        z.object({ rows: z.array(EventRowSchema) }),
        z.object({ replayed: z.object({ count: z.number().int() }) }),
        z.object({ badJson: z.literal(true) }),
        z.object({ tooLarge: z.literal(true) }),
        z.object({ keyReused: z.literal(true) }),
      ]),
    },
    /**
     * What model calls through svc's endpoint leave besides their rows (cost
     * rows, cost events, spans: shared/model-proxy/records.ts), in one
     * transaction; the committed event rows come back. Off the endpoint's
     * thread, where writing them cost more than the rest of a call.
     */
    recordCalls: {
      payload: z.object({ batch: z.array(CallRecordsSchema), secrets: z.array(z.string()) }),
      result: z.object({ rows: z.array(EventRowSchema) }),
    },
    /** Counters since the worker started: batches written, events in them, bodies refused (not JSON, or a row's data too large), model calls recorded. */
    stats: {
      payload: Empty,
      result: z.object({ batches: z.number().int(), events: z.number().int(), badBodies: z.number().int(), calls: z.number().int() }),
    },
    /** Close the database; the worker then exits. */
    stop: { payload: Empty, result: Empty },
  },
  events: {
    /** The worker serves its channel (sent once per start): until then batches are written by the supervisor. */
    ready: Empty,
  },
});

export const IngestWorkerData = z.object({ dbPath: z.string() });
