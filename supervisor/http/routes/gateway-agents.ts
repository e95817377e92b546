// Beyond the spec: the gateway's agents for the dashboard (list, create),
// through svc's own gateway connection (shared/gateway/agents-directory.ts).
// A gateway that is down or refuses is a 502 naming what it said.
import type { FastifyInstance } from 'fastify';
import { CreateGatewayAgentBody, GATEWAY_AGENT_MESSAGES as M, createGatewayAgent, listGatewayAgents } from '../../../shared/gateway/agents-directory.ts';
import { isUnreachable } from '../../../shared/exec/gateway-policy.ts';
import { messageOf } from '../../../shared/errors.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../http-error.ts';
import { objectBody, parseOr400 } from '../validate.ts';

export function gatewayAgentsRoutes(app: FastifyInstance, { gatewayLink, redactor }: AppDeps): void {
  const call = (method: string, params: unknown, opts: { timeoutMs: number; waitMs: number }) => gatewayLink.call(method, params, opts);
  const failed = (err: unknown) =>
    new HttpError(502, isUnreachable(err) ? 'gateway not reachable: start it on the Gateway page' : `gateway call failed: ${redactor.text(messageOf(err))}`);

  app.get('/api/gateway/agents', async () =>
    listGatewayAgents(call, gatewayLink.status().url !== null).catch((err: unknown) => Promise.reject(failed(err))),
  );

  app.post('/api/gateway/agents', { config: { badJsonMessage: M.nameRequired, gatewayChange: true } }, async (req) => {
    const { name } = parseOr400(CreateGatewayAgentBody, objectBody(req.body, M.nameRequired), M.nameRequired);
    const created = await createGatewayAgent(call, name).catch((err: unknown) => Promise.reject(failed(err)));
    return created;
  });
}
