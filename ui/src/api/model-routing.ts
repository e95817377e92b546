// Model routing (issue 22; docs/model-routing.md): GET and PUT
// /api/system/model-routing, POST .../sync, an upstream's confirm-host and an
// agent's token rotate and revoke (issue 31), each answering the same view,
// written into systemKeys.modelRouting: under the ['system'] root
// (system.ts), so a saved provider key or a gateway start (each may sync
// routing on the server) reads the view again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import { systemKeys } from './system.ts';
import type { ModelRoutingView } from './types.ts';

export function useModelRouting() {
  return useQuery({ queryKey: systemKeys.modelRouting, queryFn: ({ signal }) => api<ModelRoutingView>('/api/system/model-routing', { signal }) });
}

export function useSetModelRouting() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => api<ModelRoutingView>('/api/system/model-routing', { method: 'PUT', body: { enabled } }),
    onSuccess: (view) => qc.setQueryData(systemKeys.modelRouting, view),
  });
}

export function useSyncModelRouting() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<ModelRoutingView>('/api/system/model-routing/sync', { method: 'POST' }),
    onSuccess: (view) => qc.setQueryData(systemKeys.modelRouting, view),
  });
}

/** Binds an upstream's key to the origin the operator was shown (409 when it moved since). */
export function useConfirmUpstreamHost() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, origin }: { id: string; origin: string }) =>
      api<ModelRoutingView>(`/api/system/model-routing/upstreams/${encodeURIComponent(id)}/confirm-host`, { method: 'POST', body: { origin } }),
    onSuccess: (view) => qc.setQueryData(systemKeys.modelRouting, view),
  });
}

/** Rotates or revokes one agent's model token; the answer is the view (never the token). */
export function useAgentTokenAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ agentId, action }: { agentId: string; action: 'rotate' | 'revoke' }) =>
      api<ModelRoutingView>(`/api/system/model-routing/agents/${encodeURIComponent(agentId)}/token/${action}`, { method: 'POST' }),
    onSuccess: (view) => qc.setQueryData(systemKeys.modelRouting, view),
  });
}
