// A team's runaway limits (issue 31 item 7; docs/runaway.md):
// GET /api/teams/:id/runaway-limits and PUT (either limit, `{}` for the
// defaults; the same view back), under teamKeys.runawayLimits (teams.ts)
// beside the team's other settings. A 400's per-field messages stay on the
// ApiError (fieldErrorsOf in errors.ts reads them).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RUNAWAY_BOUNDS } from '../../../shared/model-proxy/runaway.ts';
import type { RunawayLimitsPatch, TeamRunawayLimits } from '../../../shared/model-proxy/runaway-limits.ts';
import { api } from './client.ts';
import { teamKeys } from './teams.ts';

export type { RunawayLimitsPatch };

/** What both routes answer. */
export type RunawayLimitsView = TeamRunawayLimits & { teamId: string };

/**
 * The server's bounds, for the inputs' min and max. Written out because the
 * shared file also holds the zod schemas (no schema code in the bundle); the
 * type is the shared constant's literal type, so a bound that changes there
 * fails the UI's typecheck until it changes here too.
 */
export const RUNAWAY_LIMIT_BOUNDS: typeof RUNAWAY_BOUNDS = { maxCallsPerTurn: { min: 1, max: 10_000 }, maxIdenticalRepeats: { min: 2, max: 1_000 } };

const pathOf = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}/runaway-limits`;

export function useRunawayLimits(teamId: string) {
  return useQuery({ queryKey: teamKeys.runawayLimits(teamId), queryFn: ({ signal }) => api<RunawayLimitsView>(pathOf(teamId), { signal }) });
}

export function useSetRunawayLimits(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RunawayLimitsPatch) => api<RunawayLimitsView>(pathOf(teamId), { method: 'PUT', body }),
    onSuccess: (view) => qc.setQueryData(teamKeys.runawayLimits(teamId), view),
  });
}
