// Client-ingested events (spec POST /api/obs/ingest): only tool_call,
// tool_result and error; at most 200 per call; malformed rows are skipped
// without failing the batch; a ts outside [now - 24 h, now + 60 s] is
// replaced by server time; runtime defaults to `gateway`; non-object data
// becomes {}. Board lifecycle kinds can never enter here.
import { z } from 'zod';
import { INGESTIBLE_KINDS } from './kinds.ts';
import type { EventInput } from './types.ts';

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
