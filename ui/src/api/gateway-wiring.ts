// What svc wires into the gateway (issue 30; docs/gateway-wiring.md): GET
// /api/system/gateway-wiring, PUT its two settings, POST a round now and the
// undo, each answering the same view, written into ['system', 'gateway-wiring']
// under the gateway page's ['system'] prefix. A round also changes routing,
// so every write reads the rest of ['system'] again.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { WiringView } from './types.ts';

export const gatewayWiringKey = ['system', 'gateway-wiring'] as const;

export function useGatewayWiring() {
  return useQuery({ queryKey: gatewayWiringKey, queryFn: ({ signal }) => api<WiringView>('/api/system/gateway-wiring', { signal }) });
}

const settle = (qc: QueryClient) => (view: WiringView) => {
  qc.setQueryData(gatewayWiringKey, view);
  void qc.invalidateQueries({ queryKey: ['system'], predicate: (q) => q.queryKey[1] !== gatewayWiringKey[1] });
};

export function useSetGatewayWiring() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { enabled?: boolean; attach?: boolean }) => api<WiringView>('/api/system/gateway-wiring', { method: 'PUT', body }),
    onSuccess: settle(qc),
  });
}

export function useReconcileGateway() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<WiringView>('/api/system/gateway-wiring/reconcile', { method: 'POST' }),
    onSuccess: settle(qc),
  });
}

export function useUndoGatewayWiring() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<WiringView>('/api/system/gateway-wiring/undo', { method: 'POST' }),
    onSuccess: settle(qc),
  });
}
