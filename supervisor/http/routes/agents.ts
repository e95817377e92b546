// Agents (the spec says the group exists but does not show it; svc's design
// is in the README's "Agents" section).
import type { FastifyInstance } from 'fastify';
import { AgentCreateSchema, AgentListQuerySchema, AgentPatchSchema } from '../../../shared/agents/schemas.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../http-error.ts';
import { objectBody, parseOr400, requireParam } from '../validate.ts';

const AGENT_NOT_FOUND = 'agent not found';
const ID_REQUIRED = 'agent id required';
const BODY_REQUIRED = 'JSON object body required';

export function agentsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { agents } = deps.domain;
  app.get('/api/agents', async (req) => {
    const q = parseOr400(AgentListQuerySchema, req.query);
    return { agents: agents.list({ teamId: q.teamId, runtime: q.runtime, includeArchived: q.includeArchived === 'true' }) };
  });

  app.get<{ Params: { id?: string } }>('/api/agents/:id', async (req) => {
    const agent = agents.get(requireParam(req.params.id, ID_REQUIRED));
    if (!agent) throw new HttpError(404, AGENT_NOT_FOUND);
    return { agent };
  });

  app.post('/api/agents', { config: { badJsonMessage: BODY_REQUIRED } }, async (req) => {
    const agent = agents.create(parseOr400(AgentCreateSchema, objectBody(req.body, BODY_REQUIRED)));
    return { agent };
  });

  app.patch<{ Params: { id?: string } }>('/api/agents/:id', { config: { badJsonMessage: BODY_REQUIRED } }, async (req) => {
    const id = requireParam(req.params.id, ID_REQUIRED);
    const patch = parseOr400(AgentPatchSchema, objectBody(req.body, BODY_REQUIRED));
    const agent = agents.update(id, patch);
    return { agent };
  });

  app.delete<{ Params: { id?: string } }>('/api/agents/:id', async (req) => {
    const deleted = agents.remove(requireParam(req.params.id, ID_REQUIRED));
    return { ok: true, deleted };
  });
}
