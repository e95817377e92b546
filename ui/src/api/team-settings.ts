// A team's own settings, each under teamKeys.team(id) (teams.ts): its rules
// (GET/PUT /api/team-rules/:id), its onboarding state (GET/PATCH
// /api/teams/:id/onboarding, which the team chat's gate reads too), the
// orchestration switch (GET/PUT .../orchestration) and delegation (GET/PUT
// .../delegation). Each write answers the new state, which replaces the
// cached one. Delegation follows the roster, so a team write reads it again
// (teams.ts); the lead brief is the lead's (lead.ts), the runaway limits have
// their own module (runaway-limits.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import { teamKeys } from './teams.ts';
import type { DelegationView, Onboarding, OrchestrationView, TeamRules } from './types.ts';

const enc = encodeURIComponent;
const rulesPath = (teamId: string) => `/api/team-rules/${enc(teamId)}`;
const teamPath = (teamId: string, what: 'onboarding' | 'orchestration' | 'delegation') => `/api/teams/${enc(teamId)}/${what}`;

export function useTeamRules(teamId: string) {
  return useQuery({ queryKey: teamKeys.rules(teamId), queryFn: ({ signal }) => api<TeamRules>(rulesPath(teamId), { signal }) });
}

/** Saves the rules (an empty text clears them). */
export function useSaveTeamRules(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api<TeamRules>(rulesPath(teamId), { method: 'PUT', body: { text } }),
    onSuccess: (rules) => qc.setQueryData(teamKeys.rules(teamId), rules),
  });
}

/** The onboarding state (spec "Onboarding state"): the chat's gate and the settings' introduction. */
export function useOnboarding(teamId: string) {
  return useQuery({ queryKey: teamKeys.onboarding(teamId), queryFn: ({ signal }) => api<Onboarding>(teamPath(teamId, 'onboarding'), { signal }) });
}

/** PATCHes the onboarding state; the answer is the full merged state. */
export function usePatchOnboarding(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<Onboarding>) => api<Onboarding>(teamPath(teamId, 'onboarding'), { method: 'PATCH', body: patch }),
    onSuccess: (state) => qc.setQueryData(teamKeys.onboarding(teamId), state),
  });
}

/** The chat gate's switch: whether svc runs the team's chat. */
export function useOrchestration(teamId: string) {
  return useQuery({ queryKey: teamKeys.orchestration(teamId), queryFn: ({ signal }) => api<OrchestrationView>(teamPath(teamId, 'orchestration'), { signal }) });
}

export function useSetOrchestration(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (serverOrchestrated: boolean) => api<OrchestrationView>(teamPath(teamId, 'orchestration'), { method: 'PUT', body: { serverOrchestrated } }),
    onSuccess: (view) => qc.setQueryData(teamKeys.orchestration(teamId), view),
  });
}

/** Delegation (issue 23): the sub-delegation switch and what the gateway config holds. */
export function useDelegation(teamId: string) {
  return useQuery({ queryKey: teamKeys.delegation(teamId), queryFn: ({ signal }) => api<DelegationView>(teamPath(teamId, 'delegation'), { signal }) });
}

export function useSetSubDelegation(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (subDelegation: boolean) => api<DelegationView>(teamPath(teamId, 'delegation'), { method: 'PUT', body: { subDelegation } }),
    onSuccess: (view) => qc.setQueryData(teamKeys.delegation(teamId), view),
  });
}
