// Server state of the Delegation section (issue 23): the team's sub-delegation
// switch and what the gateway config holds (GET/PUT /api/teams/:id/delegation).
// The key starts with 'teams', so a member change (which reloads ['teams'])
// reloads it too: the lists follow the roster.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { DelegationView } from '../../api/types.ts';

export const delegationKey = (teamId: string) => ['teams', teamId, 'delegation'] as const;

export function useDelegation(teamId: string) {
  const qc = useQueryClient();
  const path = `/api/teams/${encodeURIComponent(teamId)}/delegation`;
  const query = useQuery({ queryKey: delegationKey(teamId), queryFn: ({ signal }) => api<DelegationView>(path, { signal }) });
  const save = useMutation({
    mutationFn: (subDelegation: boolean) => api<DelegationView>(path, { method: 'PUT', body: { subDelegation } }),
    onSuccess: (view) => qc.setQueryData(delegationKey(teamId), view),
  });
  return { query, save };
}
