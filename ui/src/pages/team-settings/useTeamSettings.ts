// Server state of a team's settings page: rules, the lead brief and the
// onboarding state, each a query with the write that updates its cache.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Brief, Onboarding, OrchestrationView, TeamRules } from '../../api/types.ts';

const enc = encodeURIComponent;

export const rulesKey = (teamId: string) => ['team-rules', teamId] as const;
export const leadBriefKey = (teamId: string) => ['lead-brief', teamId] as const;
export const orchestrationKey = (teamId: string) => ['team', teamId, 'orchestration'] as const;
/** Shared with the team chat's onboarding gate (pages/team-chat/use-onboarding.ts). */
export const onboardingKey = (teamId: string) => ['team', teamId, 'onboarding'] as const;

export function useRules(teamId: string) {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: rulesKey(teamId), queryFn: ({ signal }) => api<TeamRules>(`/api/team-rules/${enc(teamId)}`, { signal }) });
  const save = useMutation({
    mutationFn: (text: string) => api<TeamRules>(`/api/team-rules/${enc(teamId)}`, { method: 'PUT', body: { text } }),
    onSuccess: (rules) => qc.setQueryData(rulesKey(teamId), rules),
  });
  return { query, save };
}

export function useLeadBrief(teamId: string) {
  const qc = useQueryClient();
  const path = `/api/lead/team-briefs/${enc(teamId)}`;
  const query = useQuery({ queryKey: leadBriefKey(teamId), queryFn: ({ signal }) => api<Brief>(path, { signal }) });
  const save = useMutation({
    mutationFn: (content: string) => api<Brief>(path, { method: 'PUT', body: { content } }),
    onSuccess: (brief) => qc.setQueryData(leadBriefKey(teamId), brief),
  });
  const clear = useMutation({
    mutationFn: () => api<{ ok: true }>(path, { method: 'DELETE' }),
    onSuccess: () => qc.setQueryData<Brief>(leadBriefKey(teamId), { content: null, updatedAt: null }),
  });
  return { query, save, clear };
}

export function useOnboarding(teamId: string) {
  const qc = useQueryClient();
  const path = `/api/teams/${enc(teamId)}/onboarding`;
  const query = useQuery({ queryKey: onboardingKey(teamId), queryFn: ({ signal }) => api<Onboarding>(path, { signal }) });
  const save = useMutation({
    mutationFn: (patch: Partial<Onboarding>) => api<Onboarding>(path, { method: 'PATCH', body: patch }),
    onSuccess: (state) => qc.setQueryData(onboardingKey(teamId), state),
  });
  return { query, save };
}

/** The chat gate's switch (GET/PUT /api/teams/:id/orchestration). */
export function useOrchestration(teamId: string) {
  const qc = useQueryClient();
  const path = `/api/teams/${enc(teamId)}/orchestration`;
  const query = useQuery({ queryKey: orchestrationKey(teamId), queryFn: ({ signal }) => api<OrchestrationView>(path, { signal }) });
  const save = useMutation({
    mutationFn: (serverOrchestrated: boolean) => api<OrchestrationView>(path, { method: 'PUT', body: { serverOrchestrated } }),
    onSuccess: (view) => qc.setQueryData(orchestrationKey(teamId), view),
  });
  return { query, save };
}
