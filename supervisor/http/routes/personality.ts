// Spec "Smaller resources" → "Personality": read the stored trait values and
// custom text of one agent (nulls when none or unreadable); write them,
// ensuring a placeholder agent row in the same transaction.
import type { FastifyInstance } from 'fastify';
import { AgentIdQuery, createPersonalityStore, PERSONALITY_MESSAGES as M, PersonalityPostBody, RequiredFields } from '../../../shared/personality/index.ts';
import type { AppDeps } from '../../deps.ts';
import { objectBody, parseOr400 } from '../validate.ts';

export function personalityRoutes(app: FastifyInstance, deps: AppDeps): void {
  const store = createPersonalityStore(deps.db, deps.tx, deps.domain.agents, deps.logger);

  app.get('/api/personality', async (req) => store.get(parseOr400(AgentIdQuery, req.query, M.agentIdRequired).agentId));

  app.post('/api/personality', { config: { badJsonMessage: M.bodyRequired } }, async (req) => {
    const body = objectBody(req.body, M.bodyRequired);
    parseOr400(RequiredFields, body, M.fieldsRequired);
    return { ok: true, ...store.put(parseOr400(PersonalityPostBody, body)) };
  });
}
