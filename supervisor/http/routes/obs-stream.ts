// GET /api/obs/stream (SSE): catch up from the client's cursor in batches of
// 500 rows, written at most 256 KB at a time as the socket takes them, then
// join the shared fan-out. Data is masked; rows written by other processes
// arrive through the tail worker. One stream past SVC_MAX_STREAMS gets 503.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { matchesScope, type ScopeFilter } from '../../../shared/events/queries.ts';
import type { EventRow } from '../../../shared/events/types.ts';
import type { AppDeps } from '../../deps.ts';
import { resumeCursor, writeFrames } from '../sse.ts';
import { eventFrame } from '../event-frames.ts';

export const CATCH_UP_BATCH = 500;

const optionalId = z.string().min(1).optional().catch(undefined);
const Query = z.object({ teamId: optionalId, taskId: optionalId, agentId: optionalId, since: z.unknown().optional() });

export function obsStreamRoutes(app: FastifyInstance, { sse, hubs, eventQueries }: AppDeps): void {
  app.get('/api/obs/stream', async (req, reply) => {
    const q = Query.parse(req.query ?? {});
    const scope: ScopeFilter = { teamId: q.teamId, taskId: q.taskId, agentId: q.agentId };
    let cursor = resumeCursor(req, q.since);
    const stream = sse.open(req, reply);

    // Catch up without holding the event loop: one batch per turn, each
    // written as the socket drains. Only a read that finds nothing new ends
    // it, so that no await lies between the read that fixes the cursor and
    // the subscription (rows delivered live meanwhile would be missed).
    for (;;) {
      if (stream.closed) return;
      const upTo = eventQueries.maxSeq();
      const rows = eventQueries.page(cursor, upTo, scope, CATCH_UP_BATCH);
      if (rows.length === 0) {
        cursor = upTo;
        break;
      }
      if (!(await writeFrames(stream, rows.map(eventFrame)))) return;
      // A short page covered everything up to upTo.
      cursor = rows.length < CATCH_UP_BATCH ? upTo : (rows[rows.length - 1] as EventRow).seq;
      await new Promise((r) => setImmediate(r));
    }
    const unsubscribe = hubs.events.subscribe({
      cursor,
      matches: (row) => matchesScope(row, scope),
      write: (chunk) => stream.write(chunk),
    });
    stream.onClose(unsubscribe);
  });
}
