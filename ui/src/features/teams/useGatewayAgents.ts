// The gateway's own agents (GET/POST /api/gateway/agents): a team talks
// through agents the gateway has, so the team settings offer them and can
// make a new one there.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { GatewayAgent, GatewayAgentsView } from '../../api/types.ts';

export const gatewayAgentsKey = ['gateway', 'agents'] as const;

export function useGatewayAgents() {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: gatewayAgentsKey,
    queryFn: ({ signal }) => api<GatewayAgentsView>('/api/gateway/agents', { signal }),
    retry: false,
  });
  const create = useMutation({
    mutationFn: (name: string) => api<{ agent: GatewayAgent; loaded: boolean }>('/api/gateway/agents', { method: 'POST', body: { name } }).then((r) => r.agent),
    onSuccess: () => qc.invalidateQueries({ queryKey: gatewayAgentsKey }),
  });
  return { query, create };
}
