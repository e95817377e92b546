// svc's settings (GET/POST /api/settings): the gateway's URL and whether a
// token is set (the token itself is write-only). One key root, ['settings'].
// A save reads the view again, and the health checks (health.ts): a new URL
// or token reconnects the gateway link, so the reachability check may change.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import { healthKeys } from './health.ts';
import type { SettingsView } from './types.ts';

export const settingsKeys = {
  all: ['settings'] as const,
  view: ['settings', 'view'] as const,
};

export function useSettings() {
  return useQuery({ queryKey: settingsKeys.view, queryFn: () => api<SettingsView>('/api/settings') });
}

/** POST /api/settings with a partial body. */
export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: { gatewayUrl?: string; gatewayToken?: string }) => api<{ ok: true }>('/api/settings', { method: 'POST', body: patch }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: settingsKeys.all });
      void qc.invalidateQueries({ queryKey: healthKeys.all });
    },
  });
}
