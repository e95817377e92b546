// Spec "Observability": the events feed, traces, the error projection, fleet
// health and the delegation graph. Routes only: the query parsed with zod
// (a wrong-typed value falls back to the spec's default, never a 500), one
// call into shared/obs, the reply. A failure propagates to the one error
// handler (plugins/errors.ts): 500 `{ error }` through the display redactor,
// a SQLite error by its code only (spec "Errors").
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clampLimit, createObsReads, splitKinds } from '../../../shared/obs/index.ts';
import type { AppDeps } from '../../deps.ts';
import { sendJsonParts } from '../json-parts-reply.ts';

/** A non-empty string, or absent (wrong types and repeated parameters too). */
const optionalId = z.string().min(1).optional().catch(undefined);
/** A finite number from a query string, or absent. */
const optionalNumber = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.number().finite().optional(),
).catch(undefined);

const EventsQuery = z.object({
  teamId: optionalId,
  taskId: optionalId,
  agentId: optionalId,
  traceId: optionalId,
  kinds: z.string().optional().catch(undefined).transform(splitKinds),
  since: optionalNumber,
  afterSeq: optionalNumber,
  limit: optionalNumber.transform(clampLimit),
  order: z.unknown().optional().transform((v) => (v === 'desc' ? ('desc' as const) : ('asc' as const))),
});
const TraceParams = z.object({ traceId: z.string() });
const ErrorsQuery = z.object({
  harnessBug: z.unknown().optional().transform((v) => v === 'true'),
  since: optionalNumber,
});
const TeamQuery = z.object({ teamId: optionalId });

export function obsRoutes(app: FastifyInstance, { db, redactor }: AppDeps): void {
  const reads = createObsReads(db);

  // The body arrives as JSON parts (built by SQLite; shared/obs/feed.ts).
  app.get('/api/obs/events', async (req, reply) => {
    sendJsonParts(reply, reads.feed.readParts(EventsQuery.parse(req.query ?? {})));
  });

  app.get('/api/obs/traces/:traceId', async (req, reply) => {
    sendJsonParts(reply, reads.trace.readParts(TraceParams.parse(req.params).traceId));
  });

  app.get('/api/obs/errors', async (req) => {
    const q = ErrorsQuery.parse(req.query ?? {});
    return reads.errors.read({ harnessBugOnly: q.harnessBug, since: q.since }, redactor.text);
  });

  app.get('/api/obs/health', async (req) => ({ agents: reads.health(TeamQuery.parse(req.query ?? {}).teamId, Date.now()) }));

  // Unwrapped and unmasked (spec): the graph object is the body.
  app.get('/api/obs/graph', async (req) => reads.graph.read(TeamQuery.parse(req.query ?? {}).teamId));
}
