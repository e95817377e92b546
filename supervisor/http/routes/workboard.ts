// The gateway's Workboard beside svc's board (issue 23 item 5; docs/api.md
// "Workboard"). Routes only parse and reply: the cache and the gateway calls
// are the Workboard service's, the rules shared/workboard/'s. A gateway
// without the plugin, or none at all, reads as `enabled: false`.
import type { FastifyInstance } from 'fastify';
import { MoveBody, WORKBOARD_MESSAGES as M, WorkboardQuery } from '../../../shared/workboard/schemas.ts';
import type { AppDeps } from '../../deps.ts';
import { objectBody, parseOr400, requireParam } from '../validate.ts';

type P = { Params: { id?: string } };

export function workboardRoutes(app: FastifyInstance, { workboard }: AppDeps): void {
  const cardId = (p: P['Params']) => requireParam(p.id, M.idRequired);

  app.get('/api/workboard', async (req) => workboard.view(parseOr400(WorkboardQuery, req.query).teamId));

  app.post<P>('/api/workboard/cards/:id/move', { config: { badJsonMessage: M.statusRequired } }, async (req) => {
    const { status } = parseOr400(MoveBody, objectBody(req.body, M.statusRequired), M.statusRequired);
    return { card: await workboard.move(cardId(req.params), status) };
  });

  app.post<P>('/api/workboard/cards/:id/dispatch', async (req) => ({ card: await workboard.dispatch(cardId(req.params)) }));
}
