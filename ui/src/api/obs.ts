// The observability feeds the dashboard reads (one key root, ['obs']): the
// `error` events of the last 24 hours (GET /api/obs/errors?since=, polled
// every 30 s), behind the nav's error count and the settings page's list.
// The feed holds at most the 500 newest (ERROR_FEED_CAP).
import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';
import type { ErrorFeed } from './types.ts';

export const ERROR_WINDOW_MS = 24 * 60 * 60 * 1000;
export const ERROR_FEED_CAP = 500;

export const obsKeys = {
  all: ['obs'] as const,
  recentErrors: ['obs', 'errors', 'last-24h'] as const,
};

export function useRecentErrors() {
  return useQuery({
    queryKey: obsKeys.recentErrors,
    queryFn: () => api<ErrorFeed>(`/api/obs/errors?since=${Date.now() - ERROR_WINDOW_MS}`),
    refetchInterval: 30_000,
  });
}
