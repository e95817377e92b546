// GET /api/obs/stream (SSE): catch up from the client's cursor in batches of
// 500 rows, written at most 256 KB at a time as the socket takes them, then
// join the shared fan-out. Data is masked; rows written by other processes
// arrive through the tail worker. One stream past SVC_MAX_STREAMS gets 503.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { matchesScope, type ScopeFilter } from '../../../shared/events/queries.ts';
import type { EventRow } from '../../../shared/events/types.ts';
import type { AppDeps } from '../../deps.ts';
import { catchUpThenFollow, resumeCursor } from '../sse.ts';
import { eventFrame } from '../event-frames.ts';

export const CATCH_UP_BATCH = 500;

const optionalId = z.string().min(1).optional().catch(undefined);
const Query = z.object({ teamId: optionalId, taskId: optionalId, agentId: optionalId, since: z.unknown().optional() });

export function obsStreamRoutes(app: FastifyInstance, { sse, hubs, eventQueries }: AppDeps): void {
  app.get('/api/obs/stream', async (req, reply) => {
    const q = Query.parse(req.query ?? {});
    const scope: ScopeFilter = { teamId: q.teamId, taskId: q.taskId, agentId: q.agentId };
    const from = resumeCursor(req, q.since);
    const stream = sse.open(req, reply);
    await catchUpThenFollow(
      stream,
      {
        newest: () => eventQueries.maxSeq(),
        page: (cursor, upTo, limit) => eventQueries.page(cursor, upTo, scope, limit),
        cursorOf: (row: EventRow) => row.seq,
        frame: eventFrame,
        batch: CATCH_UP_BATCH,
      },
      from,
      (cursor) => {
        const unsubscribe = hubs.events.subscribe({
          cursor,
          matches: (row) => matchesScope(row, scope),
          write: (chunk) => stream.write(chunk),
        });
        stream.onClose(unsubscribe);
      },
    );
  });
}
