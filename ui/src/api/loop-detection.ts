// The gateway's own tool-loop detection (issue 31 item 7; docs/runaway.md):
// GET /api/system/loop-detection, and the switch (PUT, the same view back),
// under systemKeys.loopDetection (the ['system'] root, system.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoopDetectionSwitch, LoopDetectionView } from '../../../shared/gateway/loop-detection.ts';
import { api } from './client.ts';
import { systemKeys } from './system.ts';

export type { LoopDetectionSwitch, LoopDetectionView };

export function useLoopDetection() {
  return useQuery({ queryKey: systemKeys.loopDetection, queryFn: ({ signal }) => api<LoopDetectionView>('/api/system/loop-detection', { signal }) });
}

export function useSetLoopDetection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: LoopDetectionSwitch) => api<LoopDetectionView>('/api/system/loop-detection', { method: 'PUT', body }),
    onSuccess: (view) => qc.setQueryData(systemKeys.loopDetection, view),
  });
}
