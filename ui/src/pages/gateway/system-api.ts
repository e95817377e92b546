// The gateway host's routes as the setup and gateway pages use them: query
// keys, one hook per query, and the streamed jobs (install, start/restart,
// self-update) that refresh the system queries when they end.
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { systemStatusKey } from '../../api/system-status.ts';
import type { GatewayConfigResponse, ModelList, SelfVersion } from '../../api/types.ts';
import { postStream, startJob, type Job } from '../../features/jobs/index.ts';

export const systemKeys = {
  all: ['system'] as const,
  status: systemStatusKey,
  gatewayConfig: ['system', 'gateway-config'] as const,
  models: ['system', 'models'] as const,
  selfVersion: (upstream: boolean) => ['system', 'self-version', upstream ? 'upstream' : 'local'] as const,
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

const refresh = (qc: QueryClient) => () => void qc.invalidateQueries({ queryKey: systemKeys.all });

export const JOB_LABEL = {
  install: 'Install the gateway CLI',
  start: 'Start the gateway',
  restart: 'Restart the gateway',
  selfUpdate: 'Update svc',
} as const;

/** Starters for the streamed jobs; each joins the running job of its kind. */
export function useSystemJobs() {
  const qc = useQueryClient();
  return {
    install: (): Job =>
      startJob('install-gateway', { label: JOB_LABEL.install, run: (f) => postStream('/api/system/install-gateway', {}, f), onSettled: refresh(qc) }),
    gateway: (action: 'start' | 'restart'): Job =>
      startJob('gateway', { label: JOB_LABEL[action], run: (f) => postStream('/api/system/gateway', { action }, f), onSettled: refresh(qc) }),
    selfUpdate: (): Job =>
      startJob('self-update', { label: JOB_LABEL.selfUpdate, run: (f) => postStream('/api/system/self-update', {}, f), onSettled: refresh(qc) }),
  };
}
