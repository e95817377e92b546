// Model routing (issue 22, docs/model-routing.md): GET the view, PUT the
// setting `{ enabled }`, POST a sync; confirm the host an upstream's key may
// go to, rotate or revoke an agent's model token (issue 31 item 6; the token
// is never in an answer). The rule is in shared/model-routing/;
// the gateway reconciler applies it with the rest of svc's wiring, one round
// at a time, and these routes wait for that round. A failed round is not an
// HTTP error (it shows in `lastSync`); no gateway at all (not connected, no
// openclaw.json) is a 409.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../http-error.ts';
import { objectBody, parseOr400, requireParam } from '../validate.ts';

const M = {
  body: 'JSON object body required',
  enabled: 'enabled must be true or false',
  noGateway: 'no gateway to route: configure the gateway first',
  origin: 'origin must be the upstream origin shown (scheme, host and port)',
  upstreamId: 'upstream id required',
  unknownUpstream: 'no such upstream',
  moved: "the upstream's base URL moved to another origin since: reload and confirm again",
  agentId: 'agent id required',
  unknownAgent: 'no model token for this agent',
} as const;

const PutBody = z.object({ enabled: z.boolean() });
const ConfirmBody = z.object({ origin: z.string().min(1).max(2048) });

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

  app.post<{ Params: { id: string } }>('/api/system/model-routing/upstreams/:id/confirm-host', { config: { badJsonMessage: M.body } }, async (req) => {
    const id = requireParam(req.params.id, M.upstreamId);
    const { origin } = parseOr400(ConfirmBody, objectBody(req.body, M.body), M.origin);
    const out = modelRouting.confirmHost(id, origin);
    if (out === 'unknown') throw new HttpError(404, M.unknownUpstream);
    if (out === 'moved') throw new HttpError(409, M.moved);
    return modelRouting.view();
  });

  const agentToken = (action: 'rotate' | 'revoke') =>
    async (req: { params: { id: string } }) => {
      const id = requireParam(req.params.id, M.agentId);
      if (!modelRouting.knowsAgentToken(id)) throw new HttpError(404, M.unknownAgent);
      if (action === 'rotate') {
        modelRouting.rotateToken(id);
        // The round mints the new token, writes it to the gateway's .env under its new name and asks the gateway to reload.
        await gatewayWiring.reconcile('model token rotated');
      } else {
        modelRouting.revokeToken(id);
      }
      return modelRouting.view();
    };
  app.post<{ Params: { id: string } }>('/api/system/model-routing/agents/:id/token/rotate', agentToken('rotate'));
  app.post<{ Params: { id: string } }>('/api/system/model-routing/agents/:id/token/revoke', agentToken('revoke'));
}
