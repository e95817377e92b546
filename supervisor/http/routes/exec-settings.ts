// Spec "Smaller resources", exec settings: the stored per-agent config, the
// map of execAsk values, and the post that writes locally first and then,
// for a gateway-runtime agent with a gateway id, the gateway's policy.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createExecSettingsStore, saveExecSettings } from '../../../shared/exec/index.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError, badRequest } from '../http-error.ts';
import { isObject, objectBody } from '../validate.ts';

export const EXEC_SETTINGS_ERRORS = {
  agentIdRequired: 'agentId required',
  bodyRequired: 'JSON object body required',
  fieldsRequired: 'agentId and values are required (values must be an object)',
  invalidAsk: 'execAsk must be off, on-miss or always for a gateway agent',
} as const;

const FAILURE_TEXT = {
  refused: 'the gateway refused the exec policy',
  unreachable: 'the gateway is unreachable; the exec policy was not written',
  'not-verified': 'the gateway did not confirm the exec policy',
} as const;

const AgentIdQuery = z.object({ agentId: z.string().trim().min(1) });
const PostBody = z.object({ agentId: z.string().trim().min(1), values: z.custom<Record<string, unknown>>(isObject) });

export function execSettingsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const store = createExecSettingsStore(deps.db);
  const E = EXEC_SETTINGS_ERRORS;

  // Registered before /api/exec-settings (the spec's order).
  app.get('/api/exec-settings/all', async () => store.askByAgent());

  app.get('/api/exec-settings', async (req, reply) => {
    const q = AgentIdQuery.safeParse(req.query);
    if (!q.success) throw badRequest(E.agentIdRequired);
    // The body is the config itself, or JSON null.
    return reply.type('application/json').send(JSON.stringify(store.get(q.data.agentId)));
  });

  app.post('/api/exec-settings', { config: { badJsonMessage: E.bodyRequired } }, async (req) => {
    const parsed = PostBody.safeParse(objectBody(req.body, E.bodyRequired));
    if (!parsed.success) throw badRequest(E.fieldsRequired);
    const { agentId, values } = parsed.data;
    const agent = deps.domain.agents.get(agentId);
    const r = await saveExecSettings(agentId, agent, values, {
      store,
      call: (method, params, opts) => deps.gatewayLink.call(method, params, opts),
    });
    if (r.kind === 'invalid-ask') throw badRequest(E.invalidAsk);
    if (r.kind === 'saved') return { ok: true, agentId, config: r.config, ...(r.gateway === 'accepted' ? { gateway: r.gateway, gatewayAgentId: r.gatewayAgentId } : { gateway: r.gateway }) };
    const { kind, code, message } = r.failure;
    deps.logger.warn({ agentId, gateway: kind, code, error: deps.redactor.text(message) }, 'exec settings saved locally; the gateway did not take the policy');
    throw new HttpError(502, `${FAILURE_TEXT[kind]}: ${message}`, {
      ok: false,
      savedLocally: true,
      agentId,
      config: r.config,
      gateway: kind,
      gatewayAgentId: r.gatewayAgentId,
      code,
    });
  });
}
