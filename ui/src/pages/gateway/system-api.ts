// The gateway host's routes as the setup and gateway pages use them: query
// keys, one hook per query, and the streamed jobs (install, start/restart,
// self-update, the Node for the gateway) that refresh the system queries
// when they end; the existing-gateway detection and its connect (issue 30).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { systemStatusKey } from '../../api/system-status.ts';
import type { GatewayConfigResponse, ModelList, SelfVersion } from '../../api/types.ts';
import { postStream, startJob, type Job } from '../../features/jobs/index.ts';
// Issue 30 #5: the shapes of the existing-gateway routes, typed from their zod schemas (type-only: no schema code in the bundle).
import type { ConnectExistingResult } from '../../../../shared/gateway/existing-gateway-connect.ts';
import type { ExistingGateway } from '../../../../shared/gateway/existing-gateway.ts';

export type { ConnectExistingResult, ExistingGateway };

export const systemKeys = {
  all: ['system'] as const,
  status: systemStatusKey,
  gatewayConfig: ['system', 'gateway-config'] as const,
  models: ['system', 'models'] as const,
  selfVersion: (upstream: boolean) => ['system', 'self-version', upstream ? 'upstream' : 'local'] as const,
  existingGateway: ['system', 'existing-gateway'] as const,
};

export { useSystemStatus } from '../../api/system-status.ts';

export function useGatewayConfig() {
  return useQuery({ queryKey: systemKeys.gatewayConfig, queryFn: () => api<GatewayConfigResponse>('/api/system/gateway-config') });
}

export function useModels() {
  return useQuery({ queryKey: systemKeys.models, queryFn: () => api<ModelList>('/api/system/models') });
}

/** self-version: `?local=1` (no registry call) unless the person asked to check upstream. */
export function useSelfVersion(upstream: boolean) {
  return useQuery({
    queryKey: systemKeys.selfVersion(upstream),
    queryFn: () => api<SelfVersion>(`/api/system/self-version${upstream ? '' : '?local=1'}`),
  });
}

/** Issue 30 #5: a gateway already set up or running on this machine (GET /api/system/existing-gateway). */
export function useExistingGateway() {
  return useQuery({ queryKey: systemKeys.existingGateway, queryFn: () => api<ExistingGateway>('/api/system/existing-gateway') });
}

/** Points svc at that gateway; every system query (status, the detection) is read again after it. */
export function useConnectExistingGateway() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<ConnectExistingResult>('/api/system/connect-existing-gateway', { method: 'POST', body: {} }),
    onSettled: () => qc.invalidateQueries({ queryKey: systemKeys.all }),
  });
}

const refresh = (qc: QueryClient) => () => void qc.invalidateQueries({ queryKey: systemKeys.all });

export const JOB_LABEL = {
  install: 'Install the gateway CLI',
  installNode: 'Install Node 24 for the gateway',
  start: 'Start the gateway',
  restart: 'Restart the gateway',
  selfUpdate: 'Update svc',
} as const;

/**
 * Starters for the streamed jobs; each joins the running job of its kind.
 * The Node install (issue 30 #6) shares the install slot with the gateway
 * CLI's: the server runs one install at a time (409), so the page does too;
 * its label tells the two apart.
 */
export function useSystemJobs() {
  const qc = useQueryClient();
  return {
    install: (): Job =>
      startJob('install-gateway', { label: JOB_LABEL.install, run: (f) => postStream('/api/system/install-gateway', {}, f), onSettled: refresh(qc) }),
    installNode: (): Job =>
      startJob('install-gateway', { label: JOB_LABEL.installNode, run: (f) => postStream('/api/system/install-node', {}, f), onSettled: refresh(qc) }),
    gateway: (action: 'start' | 'restart'): Job =>
      startJob('gateway', { label: JOB_LABEL[action], run: (f) => postStream('/api/system/gateway', { action }, f), onSettled: refresh(qc) }),
    selfUpdate: (): Job =>
      startJob('self-update', { label: JOB_LABEL.selfUpdate, run: (f) => postStream('/api/system/self-update', {}, f), onSettled: refresh(qc) }),
  };
}
