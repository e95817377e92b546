// Client-ingested events (spec POST /api/obs/ingest): only tool_call,
// tool_result and error; at most 200 per call; malformed rows are skipped
// without failing the batch; a ts outside [now - 24 h, now + 60 s] is
// replaced by server time; runtime defaults to `gateway`; non-object data
// becomes {}. Board lifecycle kinds can never enter here.
//
// The body is parsed here too, from its bytes, so that the ingest worker can
// do it off the front door's thread (a 200-event batch is ~60 KB of JSON:
// reading and parsing it there took most of the ~1.5 ms the front door spent
// per batch). The parse is fastify's own (secure-json-parse, prototype and
// constructor poisoning refused), so a body reads the same either way.
import sjson from 'secure-json-parse';
import { z } from 'zod';
import { INGESTIBLE_KINDS } from './kinds.ts';
import type { EventLog } from './event-log.ts';
import type { EventInput, EventRow } from './types.ts';

export const INGEST_MAX_EVENTS = 200;
export const INGEST_PAST_MS = 24 * 60 * 60_000;
export const INGEST_FUTURE_MS = 60_000;

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
    throw new IngestBodyError(err instanceof Error ? err.message : String(err));
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

export type IngestOutcome = { rows: EventRow[] } | { badJson: true };

/** A POST /api/obs/ingest body from its bytes: parsed, normalized and appended in one transaction. */
export function appendIngestBody(eventLog: Pick<EventLog, 'appendMany'>, body: Uint8Array, now: number): IngestOutcome {
  let parsed: unknown;
  try {
    parsed = parseIngestBody(body);
  } catch (err) {
    if (err instanceof IngestBodyError) return { badJson: true };
    throw err;
  }
  const events = normalizeIngest(parsed, now);
  return { rows: events.length > 0 ? eventLog.appendMany(events) : [] };
}
