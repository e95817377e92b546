// Spec "Lead agent routes" (/api/lead/*). A missing brief is null content,
// not a 404. Response field names the spec leaves open are in the README.
import type { FastifyInstance } from 'fastify';
import { BriefPutSchema, DisplayNamePutSchema, LEAD_MESSAGES as M } from '../../../shared/lead/briefs.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest } from '../http-error.ts';
import { isObject, parseOr400, requireParam } from '../validate.ts';

const OVERRIDE_MESSAGES = {
  body: 'body must be an object with an agentId key',
  agentId: 'agentId must be null or a non-empty string',
} as const;

export function leadRoutes(app: FastifyInstance, { domain: { briefs, lead } }: AppDeps): void {
  app.get<{ Params: { teamId?: string } }>('/api/lead/team-briefs/:teamId', async (req) =>
    briefs.teamBrief(requireParam(req.params.teamId, M.teamIdRequired)),
  );

  app.put<{ Params: { teamId?: string } }>('/api/lead/team-briefs/:teamId', { config: { badJsonMessage: M.contentRequired } }, async (req) => {
    const teamId = requireParam(req.params.teamId, M.teamIdRequired);
    const { content } = parseOr400(BriefPutSchema, req.body, M.contentRequired);
    return briefs.putTeamBrief(teamId, content);
  });

  app.delete<{ Params: { teamId?: string } }>('/api/lead/team-briefs/:teamId', async (req) => {
    briefs.deleteTeamBrief(requireParam(req.params.teamId, M.teamIdRequired));
    return { ok: true };
  });

  app.get('/api/lead/global-brief', async () => briefs.globalBrief());

  app.put('/api/lead/global-brief', { config: { badJsonMessage: M.contentRequired } }, async (req) =>
    briefs.putGlobalBrief(parseOr400(BriefPutSchema, req.body, M.contentRequired).content),
  );

  app.get<{ Params: { agentId?: string } }>('/api/lead/display-name/:agentId', async (req) => ({
    name: briefs.displayName(requireParam(req.params.agentId, M.agentIdRequired)),
  }));

  app.put<{ Params: { agentId?: string } }>('/api/lead/display-name/:agentId', { config: { badJsonMessage: M.nameRequired } }, async (req) => {
    const agentId = requireParam(req.params.agentId, M.agentIdRequired);
    const { name } = parseOr400(DisplayNamePutSchema, req.body, M.nameRequired);
    return { name: briefs.putDisplayName(agentId, name) };
  });

  app.get('/api/lead/override', async () => lead.view());

  app.post('/api/lead/override', { config: { badJsonMessage: OVERRIDE_MESSAGES.body } }, async (req) => {
    if (!isObject(req.body) || !('agentId' in req.body)) throw badRequest(OVERRIDE_MESSAGES.body);
    const { agentId } = req.body;
    if (agentId !== null && (typeof agentId !== 'string' || agentId.trim() === '')) throw badRequest(OVERRIDE_MESSAGES.agentId);
    const view = lead.setOverride(agentId);
    // The global lead is the effective lead of every team without a leader: their allow-lists follow it.
    return view;
  });
}
