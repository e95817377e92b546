// Spec "Teams": list, create, patch, delete, agent assignment. The list is
// served from a cache keyed on the database version (see cached-json.ts).
import type { FastifyInstance } from 'fastify';
import { AssignSchema, TEAM_MESSAGES as M, OrchestrationBody, TeamCreateSchema, TeamPatchSchema, type OrchestrationView } from '../../../shared/teams/schemas.ts';
import { createCachedJson } from '../cached-json.ts';
import { createDbVersion } from '../../../shared/db/db-version.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, HttpError } from '../http-error.ts';
import { objectBody, parseOr400, requireParam } from '../validate.ts';

interface IdParams {
  id?: string;
  agentId?: string;
}

export function teamsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, logger, domain: { teams, agents } } = deps;
  const version = createDbVersion(db, (err) => logger.warn({ err }, 'WAL index not readable; teams list checks the database version by query'));
  app.addHook('onClose', (_app, done) => {
    version.close();
    done();
  });
  const list = createCachedJson<'all' | 'live'>(version, (key) => teams.list(key === 'all'));

  app.get<{ Querystring: { includeArchived?: string } }>('/api/teams', (req, reply) => {
    list.send(req.query.includeArchived === 'true' ? 'all' : 'live', req, reply);
  });

  app.post('/api/teams', async (req) => {
    const body = objectBody(req.body, M.invalidJson);
    for (const f of ['name', 'icon', 'color'] as const) {
      if (typeof body[f] !== 'string' || body[f] === '') throw badRequest(M.createRequired);
    }
    return { team: teams.create(parseOr400(TeamCreateSchema, body)) };
  });

  app.patch<{ Params: IdParams }>('/api/teams/:id', async (req) => {
    const id = requireParam(req.params.id, M.idRequired);
    const patch = parseOr400(TeamPatchSchema, objectBody(req.body, M.invalidJson));
    const team = teams.update(id, patch);
    return { team };
  });

  app.delete<{ Params: IdParams }>('/api/teams/:id', async (req) => {
    teams.remove(requireParam(req.params.id, M.idRequired));
    return { ok: true };
  });

  app.post<{ Params: IdParams }>('/api/teams/:id/agents', { config: { badJsonMessage: M.agentIdRequired } }, async (req) => {
    const teamId = requireParam(req.params.id, M.idRequired);
    const { agentId, agentName } = parseOr400(AssignSchema, req.body, M.agentIdRequired);
    agents.assignToTeam(agentId, teamId, agentName);
    return { ok: true };
  });

  // The spec: the :id segment is not part of the predicate.
  app.delete<{ Params: IdParams }>('/api/teams/:id/agents/:agentId', async (req) => {
    agents.unassign(requireParam(req.params.agentId, M.agentIdRequiredPath));
    return { ok: true };
  });

  // Beyond the spec: the switch behind its `team-server-orchestrated:<id>` setting, for the team settings page.
  const orchestration = (teamId: string): OrchestrationView => ({ teamId, serverOrchestrated: teams.isServerOrchestrated(teamId) });

  app.get<{ Params: IdParams }>('/api/teams/:id/orchestration', async (req) => {
    const teamId = requireParam(req.params.id, M.idRequired);
    if (!teams.exists(teamId)) throw new HttpError(404, M.notFound);
    return orchestration(teamId);
  });

  app.put<{ Params: IdParams }>('/api/teams/:id/orchestration', { config: { badJsonMessage: M.orchestrationRequired } }, async (req) => {
    const teamId = requireParam(req.params.id, M.idRequired);
    const { serverOrchestrated } = parseOr400(OrchestrationBody, objectBody(req.body, M.orchestrationRequired), M.orchestrationRequired);
    teams.setServerOrchestrated(teamId, serverOrchestrated);
    return orchestration(teamId);
  });
}
