// The gateway's Workboard cards on the board (issue 23 item 5): GET
// /api/workboard (a team's cards, or every card), polled at the board's
// cadence, and the two writes (move, dispatch), after which, answered or
// not, every card list is read again. A gateway without the plugin answers
// `enabled: false`: the board then shows nothing extra. One key root,
// ['workboard'].
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { WorkboardCard, WorkboardView } from './types.ts';

const enc = encodeURIComponent;

export const workboardKeys = {
  all: ['workboard'] as const,
  /** A team's cards, or every card (null). */
  list: (teamId: string | null) => ['workboard', 'list', teamId] as const,
};

export function useWorkboard(teamId: string | null, opts: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: workboardKeys.list(teamId),
    queryFn: ({ signal }) => api<WorkboardView>(teamId === null ? '/api/workboard' : `/api/workboard?teamId=${enc(teamId)}`, { signal }),
    refetchInterval: opts.refetchInterval,
  });
}

export function useMoveWorkboardCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: string }) =>
      api<{ card: WorkboardCard }>(`/api/workboard/cards/${enc(id)}/move`, { method: 'POST', body: { status } }).then((r) => r.card),
    onSettled: () => void qc.invalidateQueries({ queryKey: workboardKeys.all }),
  });
}

export function useDispatchWorkboardCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ card: WorkboardCard }>(`/api/workboard/cards/${enc(id)}/dispatch`, { method: 'POST', body: {} }).then((r) => r.card),
    onSettled: () => void qc.invalidateQueries({ queryKey: workboardKeys.all }),
  });
}
