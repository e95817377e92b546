// The boot probe's health report (GET /api/health) and Recheck (POST
// /api/health/recheck), whose answer replaces the cached report. One key
// root, ['health'].
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { BootReport } from './types.ts';

export type HealthAnswer = BootReport & { ok: boolean };

export const healthKeys = {
  all: ['health'] as const,
  report: ['health', 'report'] as const,
};

export function useHealth() {
  return useQuery({ queryKey: healthKeys.report, queryFn: () => api<HealthAnswer>('/api/health') });
}

export function useRecheck() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<HealthAnswer>('/api/health/recheck', { method: 'POST' }),
    onSuccess: (report) => qc.setQueryData(healthKeys.report, report),
  });
}
