// Settings and health server state: ['settings'] (GET /api/settings),
// ['health'] (GET /api/health; a recheck writes its answer into the same key).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { BootReport, SettingsView } from '../../api/types.ts';

export type HealthAnswer = BootReport & { ok: boolean };

export const settingsKey = ['settings'] as const;
export const healthKey = ['health'] as const;

export function useSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: () => api<SettingsView>('/api/settings') });
}

/** POST /api/settings with a partial body; the view is read again afterwards. */
export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: { gatewayUrl?: string; gatewayToken?: string }) => api<{ ok: true }>('/api/settings', { method: 'POST', body: patch }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: settingsKey });
      // A new URL or token reconnects the gateway link: the reachability check may change.
      void qc.invalidateQueries({ queryKey: healthKey });
    },
  });
}

export function useHealth() {
  return useQuery({ queryKey: healthKey, queryFn: () => api<HealthAnswer>('/api/health') });
}

export function useRecheck() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<HealthAnswer>('/api/health/recheck', { method: 'POST' }),
    onSuccess: (report) => qc.setQueryData(healthKey, report),
  });
}
