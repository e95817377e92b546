// What svc wires into the gateway (issue 30; docs/gateway-wiring.md): GET
// /api/system/gateway-wiring, PUT its two settings, POST a round now and the
// undo, each answering the same view, written into systemKeys.gatewayWiring
// under the ['system'] root (system.ts). A round also changes routing, so
// every write reads the rest of ['system'] again.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import { systemKeys } from './system.ts';
import type { WiringView } from './types.ts';

export function useGatewayWiring() {
  return useQuery({ queryKey: systemKeys.gatewayWiring, queryFn: ({ signal }) => api<WiringView>('/api/system/gateway-wiring', { signal }) });
}

const settle = (qc: QueryClient) => (view: WiringView) => {
  qc.setQueryData(systemKeys.gatewayWiring, view);
  void qc.invalidateQueries({ queryKey: systemKeys.all, predicate: (q) => q.queryKey[1] !== systemKeys.gatewayWiring[1] });
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
