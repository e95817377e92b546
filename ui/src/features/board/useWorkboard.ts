// The gateway's Workboard cards on the board (issue 23 item 5): GET
// /api/workboard (a team's cards, or every card), polled at the board's
// cadence, and the two writes (move, dispatch), after which the cards are
// read again. A gateway without the plugin answers `enabled: false`: the
// board then shows nothing extra.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { WorkboardCard, WorkboardView } from '../../api/types.ts';

const enc = encodeURIComponent;

export function workboardKey(teamId: string | null): readonly ['workboard', string | null] {
  return ['workboard', teamId];
}

export function fetchWorkboard(teamId: string | null, signal?: AbortSignal): Promise<WorkboardView> {
  return api<WorkboardView>(teamId === null ? '/api/workboard' : `/api/workboard?teamId=${enc(teamId)}`, { signal });
}

export function useWorkboard(teamId: string | null, opts: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: workboardKey(teamId),
    queryFn: ({ signal }) => fetchWorkboard(teamId, signal),
    refetchInterval: opts.refetchInterval,
  });
}

export function useWorkboardMutations() {
  const qc = useQueryClient();
  const settled = () => void qc.invalidateQueries({ queryKey: ['workboard'] });
  return {
    move: useMutation({
      mutationFn: ({ id, status }: { id: string; status: string }) =>
        api<{ card: WorkboardCard }>(`/api/workboard/cards/${enc(id)}/move`, { method: 'POST', body: { status } }).then((r) => r.card),
      onSettled: settled,
    }),
    dispatch: useMutation({
      mutationFn: (id: string) => api<{ card: WorkboardCard }>(`/api/workboard/cards/${enc(id)}/dispatch`, { method: 'POST', body: {} }).then((r) => r.card),
      onSettled: settled,
    }),
  };
}
