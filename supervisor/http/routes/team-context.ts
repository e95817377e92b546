// Spec "Teams": onboarding, activity summary and team rules: the per-team
// context that the group chat reads.
import type { FastifyInstance } from 'fastify';
import { OnboardingPatchSchema } from '../../../shared/teams/onboarding.ts';
import { RULES_MESSAGES, RulesPutSchema } from '../../../shared/teams/rules.ts';
import { TEAM_MESSAGES as M } from '../../../shared/teams/schemas.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../http-error.ts';
import { objectBody, parseOr400, requireParam } from '../validate.ts';

export function teamContextRoutes(app: FastifyInstance, { domain }: AppDeps): void {
  const { onboarding, rules, teams, activitySummary } = domain;

  app.get<{ Params: { id?: string } }>('/api/teams/:id/onboarding', async (req) =>
    onboarding.get(requireParam(req.params.id, M.idRequired)),
  );

  app.patch<{ Params: { id?: string } }>('/api/teams/:id/onboarding', async (req) => {
    const id = requireParam(req.params.id, M.idRequired);
    const patch = OnboardingPatchSchema.parse(objectBody(req.body, M.invalidJson));
    return onboarding.merge(id, patch);
  });

  app.get<{ Params: { id?: string } }>('/api/teams/:id/activity-summary', async (req) => ({
    content: activitySummary(requireParam(req.params.id, M.idRequired)),
  }));

  // Team rules: svc's shapes (the spec leaves them out): PUT { text },
  // both answer { teamId, text, updatedAt }; an unknown team is a 404 so a
  // typo cannot leave rules behind that no delete will ever clean.
  const knownTeam = (teamId: string) => {
    if (!teams.exists(teamId)) throw new HttpError(404, M.notFound);
    return teamId;
  };

  app.get<{ Params: { teamId?: string } }>('/api/team-rules/:teamId', async (req) =>
    rules.get(knownTeam(requireParam(req.params.teamId, M.idRequired))),
  );

  app.put<{ Params: { teamId?: string } }>('/api/team-rules/:teamId', { config: { badJsonMessage: RULES_MESSAGES.textRequired } }, async (req) => {
    const teamId = requireParam(req.params.teamId, M.idRequired);
    const { text } = parseOr400(RulesPutSchema, objectBody(req.body, RULES_MESSAGES.textRequired));
    return rules.put(knownTeam(teamId), text);
  });
}
