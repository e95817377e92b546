// A run's model calls (issue 22): GET /api/model-calls?runId=, newest first,
// one row per call svc's model endpoint served.
import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';
import type { ModelCall } from './types.ts';

export const modelCallKeys = {
  all: ['model-calls'] as const,
  run: (runId: string) => ['model-calls', 'run', runId] as const,
};

export function useRunModelCalls(runId: string) {
  return useQuery({
    queryKey: modelCallKeys.run(runId),
    queryFn: ({ signal }) => api<{ calls: ModelCall[] }>(`/api/model-calls?runId=${encodeURIComponent(runId)}&limit=500`, { signal }).then((r) => r.calls),
  });
}
