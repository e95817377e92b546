// The team's onboarding state (spec "Onboarding state"): GET and PATCH
// /api/teams/:id/onboarding. The PATCH answers the full merged state, which
// replaces the cached one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Onboarding } from '../../api/types.ts';

/** Spec "Limits": userIntroText. */
export const USER_INTRO_MAX = 4000;

export const onboardingKey = (teamId: string) => ['team', teamId, 'onboarding'] as const;

export function useOnboarding(teamId: string) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: onboardingKey(teamId),
    queryFn: ({ signal }) => api<Onboarding>(`/api/teams/${encodeURIComponent(teamId)}/onboarding`, { signal }),
  });
  const patch = useMutation({
    mutationFn: (body: Partial<Onboarding>) => api<Onboarding>(`/api/teams/${encodeURIComponent(teamId)}/onboarding`, { method: 'PATCH', body }),
    onSuccess: (next) => qc.setQueryData(onboardingKey(teamId), next),
  });
  return { query, patch };
}
