// Client-ingested events (spec POST /api/obs/ingest): only tool_call,
// tool_result and error; at most 200 per call; malformed rows are skipped
// without failing the batch; a ts outside [now - 24 h, now + 60 s] is
// replaced by server time; runtime defaults to `gateway`; non-object data
// becomes {}. Board lifecycle kinds can never enter here. A row whose data is
// over 64 KB serialized refuses the whole batch (nothing stored), and a batch
// sent with an idempotency key is stored once (ingest-keys.ts).
//
// The body is parsed here too, from its bytes, so that the ingest worker can
// do it off the front door's thread (a 200-event batch is ~60 KB of JSON:
// reading and parsing it there took most of the ~1.5 ms the front door spent
// per batch). The parse is fastify's own (secure-json-parse, prototype and
// constructor poisoning refused), so a body reads the same either way.
import sjson from 'secure-json-parse';
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { INGESTIBLE_KINDS } from './kinds.ts';
import { DataTooLargeError, type EventLog } from './event-log.ts';
import { bodyDigest, createIngestKeys } from './ingest-keys.ts';
import type { EventInput, EventRow } from './types.ts';
import { messageOf } from '../errors.ts';

export const INGEST_MAX_EVENTS = 200;
export const INGEST_PAST_MS = 24 * 60 * 60_000;
export const INGEST_FUTURE_MS = 60_000;
/** The most one row's `data` may take, serialized (UTF-8 bytes, after masking: what would be stored). */
export const INGEST_MAX_DATA_BYTES = 64 * 1024;

export const INGEST_MESSAGES = {
  tooLarge: `an event's data is larger than 64 KB (${INGEST_MAX_DATA_BYTES} bytes) serialized: nothing of this batch was stored`,
} as const;

const optId = z.string().nullable().optional();

const IngestRow = z.object({
  kind: z.enum(INGESTIBLE_KINDS),
  // A wrong-typed ts is replaced by server time like an out-of-band one.
  ts: z.unknown().optional(),
  teamId: optId,
  taskId: optId,
  agentId: optId,
  runtime: optId,
  traceId: optId,
  spanId: optId,
  parentSpanId: optId,
  correlationId: optId,
  tenantId: optId,
  data: z.unknown().optional(),
});

/** The body is not JSON, is empty, or carries a `__proto__` or `constructor.prototype` key. */
export class IngestBodyError extends SyntaxError {}

/** Parses a JSON request body from its UTF-8 bytes as fastify's JSON parser would. */
export function parseIngestBody(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text === '') throw new IngestBodyError('empty JSON body');
  try {
    return sjson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw new IngestBodyError(messageOf(err));
  }
}

export function normalizeIngest(body: unknown, now: number): EventInput[] {
  const events = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { events?: unknown }).events : undefined;
  if (!Array.isArray(events)) return [];
  const out: EventInput[] = [];
  for (const raw of events.slice(0, INGEST_MAX_EVENTS)) {
    const parsed = IngestRow.safeParse(raw);
    if (!parsed.success) continue;
    const e = parsed.data;
    const ts = typeof e.ts === 'number' && Number.isFinite(e.ts) ? e.ts : undefined;
    const tsOk = ts !== undefined && ts >= now - INGEST_PAST_MS && ts <= now + INGEST_FUTURE_MS;
    const data = e.data !== null && typeof e.data === 'object' && !Array.isArray(e.data) ? e.data : {};
    out.push({
      kind: e.kind,
      ts: tsOk ? ts : now,
      teamId: e.teamId ?? null,
      taskId: e.taskId ?? null,
      agentId: e.agentId ?? null,
      runtime: e.runtime ?? 'gateway',
      traceId: e.traceId ?? null,
      spanId: e.spanId ?? null,
      parentSpanId: e.parentSpanId ?? null,
      correlationId: e.correlationId ?? null,
      tenantId: e.tenantId ?? null,
      data,
    });
  }
  return out;
}

export type IngestOutcome =
  /** Written now (possibly no rows). */
  | { rows: EventRow[] }
  /** The key was seen within 24 h with this same body: its first answer, nothing written. */
  | { replayed: { count: number } }
  | { badJson: true }
  /** A row's data is over INGEST_MAX_DATA_BYTES: nothing written. */
  | { tooLarge: true }
  /** The key was seen within 24 h with another body: nothing written. */
  | { keyReused: true };

export interface IngestWriter {
  /** A POST /api/obs/ingest body from its bytes: parsed, normalized and appended in one transaction. */
  appendBody(body: Uint8Array, now: number, key?: string): IngestOutcome;
}

/** The ingest write path over one connection (the ingest worker's, or the supervisor's when the worker cannot take a batch). */
export function createIngestWriter({ db, tx, eventLog }: { db: Db; tx: Tx; eventLog: Pick<EventLog, 'appendMany'> }): IngestWriter {
  const keys = createIngestKeys(db);
  return {
    appendBody(body, now, key) {
      let parsed: unknown;
      try {
        parsed = parseIngestBody(body);
      } catch (err) {
        if (err instanceof IngestBodyError) return { badJson: true };
        throw err;
      }
      const events = normalizeIngest(parsed, now);
      const write = () => (events.length > 0 ? eventLog.appendMany(events, { maxDataBytes: INGEST_MAX_DATA_BYTES }) : []);
      try {
        if (key === undefined) return { rows: write() };
        const digest = bodyDigest(body);
        // The key is looked up and recorded in the batch's own (IMMEDIATE)
        // transaction: two tries of one batch, even from two connections,
        // cannot both miss it, and a key never outlives a rolled-back batch.
        return tx.run((): IngestOutcome => {
          const first = keys.find(key, now);
          if (first) return first.digest === digest ? { replayed: { count: first.count } } : { keyReused: true };
          const rows = write();
          keys.record(key, digest, rows.length, now);
          return { rows };
        });
      } catch (err) {
        if (err instanceof DataTooLargeError) return { tooLarge: true };
        throw err;
      }
    },
  };
}
