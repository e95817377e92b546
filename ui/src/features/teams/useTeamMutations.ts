// Team writes (spec "Teams"): create, patch (rename, archive, leader),
// delete, and member assignment. Each one reloads every cached team list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Team, TeamCreate, TeamPatch } from '../../api/types.ts';

export function useTeamMutations() {
  const qc = useQueryClient();
  const reload = () => qc.invalidateQueries({ queryKey: ['teams'] });
  const reloadAll = () => Promise.all([reload(), qc.invalidateQueries({ queryKey: ['agents'] })]);
  return {
    create: useMutation({
      // The create route writes the switch only when it is on (the spec); off, it takes a second write.
      mutationFn: async (body: TeamCreate) => {
        const { team } = await api<{ team: Team }>('/api/teams', { method: 'POST', body });
        if (body.serverOrchestrated === false) {
          await api(`/api/teams/${encodeURIComponent(team.id)}/orchestration`, { method: 'PUT', body: { serverOrchestrated: false } });
        }
        return team;
      },
      onSuccess: reload,
    }),
    patch: useMutation({
      mutationFn: ({ id, ...body }: TeamPatch & { id: string }) =>
        api<{ team: Team }>(`/api/teams/${encodeURIComponent(id)}`, { method: 'PATCH', body }).then((r) => r.team),
      onSuccess: reload,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api<{ ok: true }>(`/api/teams/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: reloadAll,
    }),
    assign: useMutation({
      mutationFn: ({ teamId, agentId, agentName }: { teamId: string; agentId: string; agentName?: string }) =>
        api<{ ok: true }>(`/api/teams/${encodeURIComponent(teamId)}/agents`, {
          method: 'POST',
          body: agentName ? { agentId, agentName } : { agentId },
        }),
      onSuccess: reloadAll,
    }),
    unassign: useMutation({
      mutationFn: ({ teamId, agentId }: { teamId: string; agentId: string }) =>
        api<{ ok: true }>(`/api/teams/${encodeURIComponent(teamId)}/agents/${encodeURIComponent(agentId)}`, { method: 'DELETE' }),
      onSuccess: reloadAll,
    }),
  };
}
