// GET /api/system/status as one query: the shell's gateway badge, the home
// redirect and the setup and gateway pages all read (and poll) this key, so
// a job that ends and invalidates it refreshes every one of them.
import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';
import type { SystemStatus } from './types.ts';

export const systemStatusKey = ['system', 'status'] as const;

/** The status; polled every `pollMs` when given (polling pauses in hidden tabs). */
export function useSystemStatus(pollMs?: number) {
  return useQuery({
    queryKey: systemStatusKey,
    queryFn: () => api<SystemStatus>('/api/system/status'),
    ...(pollMs ? { refetchInterval: pollMs } : {}),
  });
}
