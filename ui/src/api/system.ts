// The gateway host's routes (/api/system/*) as the shell, the home redirect
// and the setup and gateway pages use them: one key root, ['system'], so a
// write or a job that ends reads every system query again; one hook per
// query; a mutation hook per JSON write. The POST streams (install,
// start/restart, self-update, the Node for the gateway) are in
// system-streams.ts, so the stream reader stays out of the entry bundle (the
// shell reads the status). The gateway's wiring, its loop detection and
// model routing have modules of their own under the same root
// (gateway-wiring.ts, loop-detection.ts, model-routing.ts).
import { useMutation, useMutationState, useQuery, useQueryClient, type MutationState } from '@tanstack/react-query';
import { api } from './client.ts';
import type {
  ApproveDeviceResult, AutoConfigureResponse, ConfigureGatewayResult, GatewayConfigPatch, GatewayConfigPatchResult, GatewayConfigResponse,
  GatewayStopResult, ModelList, SelfVersion, SystemStatus,
} from './types.ts';
// Issue 30 #5: the shapes of the existing-gateway routes, typed from their zod schemas (type-only: no schema code in the bundle).
import type { ConnectExistingResult } from '../../../shared/gateway/existing-gateway-connect.ts';
import type { ExistingGateway } from '../../../shared/gateway/existing-gateway.ts';

export type { ConnectExistingResult, ExistingGateway };

export const systemKeys = {
  all: ['system'] as const,
  status: ['system', 'status'] as const,
  gatewayConfig: ['system', 'gateway-config'] as const,
  models: ['system', 'models'] as const,
  selfVersion: (upstream: boolean) => ['system', 'self-version', upstream ? 'upstream' : 'local'] as const,
  existingGateway: ['system', 'existing-gateway'] as const,
  gatewayWiring: ['system', 'gateway-wiring'] as const,
  loopDetection: ['system', 'loop-detection'] as const,
  modelRouting: ['system', 'model-routing'] as const,
};

/** Mutation keys of the writes whose outcome outlives the component that started them. */
export const systemMutationKeys = {
  approveDevice: ['system', 'approve-device'] as const,
};

/**
 * GET /api/system/status: the shell's gateway badge, the home redirect and
 * the setup and gateway pages all read (and poll) this key, so a job that
 * ends and invalidates it refreshes every one of them. Polled every `pollMs`
 * when given (polling pauses in hidden tabs).
 */
export function useSystemStatus(pollMs?: number) {
  return useQuery({
    queryKey: systemKeys.status,
    queryFn: () => api<SystemStatus>('/api/system/status'),
    ...(pollMs ? { refetchInterval: pollMs } : {}),
  });
}

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

/** Stops the gateway (a plain JSON call, unlike start and restart); every system query is read again, answered or not. */
export function useStopGateway() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<GatewayStopResult>('/api/system/gateway', { method: 'POST', body: { action: 'stop' } }),
    // Not awaited: the answer shows as soon as it comes, the status follows.
    onSettled: () => void qc.invalidateQueries({ queryKey: systemKeys.all }),
  });
}

/**
 * PATCH /api/system/gateway-config with what changed. `onSaved` hears the
 * answer first; then every system query is read again (routing may sync on
 * the server after a key), and the save stays pending until they are.
 */
export function usePatchGatewayConfig({ onSaved }: { onSaved?: (r: GatewayConfigPatchResult) => void } = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: GatewayConfigPatch) => api<GatewayConfigPatchResult>('/api/system/gateway-config', { method: 'PATCH', body: patch }),
    // Provider keys ride in the patch: drop the mutation as soon as no form shows it.
    gcTime: 0,
    onSuccess: (r) => {
      onSaved?.(r);
      return qc.invalidateQueries({ queryKey: systemKeys.all });
    },
  });
}

/** Setup's "Configure automatically" (a key or login svc already has); the status is read again when it worked. */
export function useAutoConfigureGateway() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<AutoConfigureResponse>('/api/system/auto-configure-gateway', { method: 'POST' }),
    onSuccess: (r) => {
      if (r.ok) void qc.invalidateQueries({ queryKey: systemKeys.status });
    },
  });
}

/**
 * The provider-key form (POST configure-gateway); the status is read again
 * after it. The key is in the request only: gcTime 0 drops the mutation with
 * the form.
 */
export function useConfigureGateway() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { provider: string; apiKey?: string; model?: string; gatewayPort?: number }) =>
      api<ConfigureGatewayResult>('/api/system/configure-gateway', { method: 'POST', body }),
    gcTime: 0,
    onSuccess: () => void qc.invalidateQueries({ queryKey: systemKeys.status }),
  });
}

/**
 * Approves svc's own pending pairing request at the gateway. GET status does
 * not report pairing, so the last answer is kept in the mutation cache for
 * good (gcTime Infinity): it still shows after navigating away and back.
 */
export function useApproveDevice() {
  return useMutation({
    mutationKey: systemMutationKeys.approveDevice,
    mutationFn: () => api<ApproveDeviceResult>('/api/system/approve-device', { method: 'POST' }),
    gcTime: Infinity,
  });
}

export type ApproveDeviceState = MutationState<ApproveDeviceResult, Error, void>;

/** The latest pairing attempt of this tab, whichever component started it; undefined before the first. */
export function useLastApproveDevice(): ApproveDeviceState | undefined {
  const states = useMutationState({
    filters: { mutationKey: systemMutationKeys.approveDevice },
    select: (m) => m.state as ApproveDeviceState,
  });
  return states.at(-1);
}
