// The lead (the lead routes, /api/lead/*): the global lead override (GET
// /api/lead/override), which the team chat's roster falls back on, and a
// team's lead brief (GET/PUT/DELETE /api/lead/team-briefs/:teamId), what the
// team lead knows about the team. One key root, ['lead']; a write answers the
// new state, which replaces the cached one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { Brief, LeadOverrideView } from './types.ts';

export const leadKeys = {
  all: ['lead'] as const,
  override: ['lead', 'override'] as const,
  teamBrief: (teamId: string) => ['lead', 'team-brief', teamId] as const,
};

const briefPath = (teamId: string) => `/api/lead/team-briefs/${encodeURIComponent(teamId)}`;

export function useLeadOverride({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: leadKeys.override, queryFn: ({ signal }) => api<LeadOverrideView>('/api/lead/override', { signal }), enabled });
}

export function useLeadBrief(teamId: string) {
  return useQuery({ queryKey: leadKeys.teamBrief(teamId), queryFn: ({ signal }) => api<Brief>(briefPath(teamId), { signal }) });
}

export function useSaveLeadBrief(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => api<Brief>(briefPath(teamId), { method: 'PUT', body: { content } }),
    onSuccess: (brief) => qc.setQueryData(leadKeys.teamBrief(teamId), brief),
  });
}

export function useClearLeadBrief(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ ok: true }>(briefPath(teamId), { method: 'DELETE' }),
    onSuccess: () => qc.setQueryData<Brief>(leadKeys.teamBrief(teamId), { content: null, updatedAt: null }),
  });
}
