// Importing a team the gateway made itself (issue 23): the gateway agents
// with the ids each may spawn (GET /api/teams/import/candidates), and the
// import (POST /api/teams/import), which reloads the team and agent lists.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Agent, GatewayAgentsView, Team } from '../../api/types.ts';

export const importCandidatesKey = ['gateway', 'agents', 'import-candidates'] as const;

export function useImportTeam(enabled: boolean) {
  const qc = useQueryClient();
  const candidates = useQuery({
    queryKey: importCandidatesKey,
    queryFn: ({ signal }) => api<GatewayAgentsView>('/api/teams/import/candidates', { signal }),
    enabled,
    retry: false,
  });
  const importTeam = useMutation({
    mutationFn: (coordinatorId: string) => api<{ team: Team; agents: Agent[] }>('/api/teams/import', { method: 'POST', body: { coordinatorId } }),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['teams'] }), qc.invalidateQueries({ queryKey: ['agents'] })]),
  });
  return { candidates, importTeam };
}
