// Model routing (issue 22, docs/model-routing.md): GET the view, PUT the
// setting `{ enabled }`, POST a sync. The rule is in shared/model-routing/;
// the gateway reconciler applies it with the rest of svc's wiring, one round
// at a time, and these routes wait for that round. A failed round is not an
// HTTP error (it shows in `lastSync`); no gateway at all (not connected, no
// openclaw.json) is a 409.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../http-error.ts';
import { objectBody, parseOr400 } from '../validate.ts';

const M = {
  body: 'JSON object body required',
  enabled: 'enabled must be true or false',
  noGateway: 'no gateway to route: configure the gateway first',
} as const;

const PutBody = z.object({ enabled: z.boolean() });

export function modelRoutingRoutes(app: FastifyInstance, { modelRouting, gatewayWiring }: AppDeps): void {
  const requireGateway = () => {
    if (!modelRouting.hasGateway()) throw new HttpError(409, M.noGateway);
  };

  app.get('/api/system/model-routing', async () => modelRouting.view());

  app.put('/api/system/model-routing', { config: { badJsonMessage: M.body } }, async (req) => {
    const { enabled } = parseOr400(PutBody, objectBody(req.body, M.body), M.enabled);
    requireGateway();
    modelRouting.setEnabled(enabled);
    await gatewayWiring.reconcile(enabled ? 'routing turned on' : 'routing turned off');
    return modelRouting.view();
  });

  app.post('/api/system/model-routing/sync', async () => {
    requireGateway();
    await gatewayWiring.reconcile('sync requested');
    return modelRouting.view();
  });
}
