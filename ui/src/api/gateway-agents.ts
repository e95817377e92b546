// The gateway's own agents (GET/POST /api/gateway/agents): a team talks
// through agents the gateway has, so the team settings offer them and can
// make a new one there; and the ones that may hand work to others, which
// "Import from gateway" offers (GET /api/teams/import/candidates; the import
// itself is a team write, teams.ts). One key root: a new gateway agent reads
// both lists again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { GatewayAgent, GatewayAgentsView } from './types.ts';

export const gatewayAgentKeys = {
  all: ['gateway-agents'] as const,
  list: ['gateway-agents', 'list'] as const,
  importCandidates: ['gateway-agents', 'import-candidates'] as const,
};

export function useGatewayAgents() {
  return useQuery({
    queryKey: gatewayAgentKeys.list,
    queryFn: ({ signal }) => api<GatewayAgentsView>('/api/gateway/agents', { signal }),
    retry: false,
  });
}

export function useCreateGatewayAgent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<{ agent: GatewayAgent; loaded: boolean }>('/api/gateway/agents', { method: 'POST', body: { name } }).then((r) => r.agent),
    onSuccess: () => qc.invalidateQueries({ queryKey: gatewayAgentKeys.all }),
  });
}

/** The gateway agents with the ids each may spawn; read only while the import dialog is open. */
export function useImportCandidates(enabled: boolean) {
  return useQuery({
    queryKey: gatewayAgentKeys.importCandidates,
    queryFn: ({ signal }) => api<GatewayAgentsView>('/api/teams/import/candidates', { signal }),
    enabled,
    retry: false,
  });
}
