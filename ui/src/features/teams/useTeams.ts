// Teams' server state: the list from GET /api/teams (with or without the
// archived ones) and one team read from it. Writes invalidate ['teams'].
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Assignment, Team, TeamList } from '../../api/types.ts';

export function teamsKey(includeArchived: boolean): readonly ['teams', boolean] {
  return ['teams', includeArchived];
}

export function useTeams({ includeArchived }: { includeArchived: boolean }) {
  return useQuery({
    queryKey: teamsKey(includeArchived),
    queryFn: ({ signal }) => api<TeamList>(`/api/teams${includeArchived ? '?includeArchived=true' : ''}`, { signal }),
  });
}

export interface TeamState {
  /** Undefined while loading, on error, or when no team has this id (see notFound). */
  team: Team | undefined;
  /** The team's members (assignment view). */
  assignments: Assignment[];
  isPending: boolean;
  error: Error | null;
  /** Loaded and no team (live or archived) has this id. */
  notFound: boolean;
  refetch: () => void;
}

/** One team, from the live list (key ['teams', false]); an archived team is looked up in the full list. */
export function useTeam(id: string | null | undefined): TeamState {
  const live = useTeams({ includeArchived: false });
  const inLive = live.data?.teams.find((t) => t.id === id);
  const needAll = live.isSuccess && inLive === undefined && !!id;
  const all = useQuery({
    queryKey: teamsKey(true),
    queryFn: ({ signal }) => api<TeamList>('/api/teams?includeArchived=true', { signal }),
    enabled: needAll,
  });
  const list = inLive !== undefined ? live.data : needAll ? all.data : live.data;
  const team = list?.teams.find((t) => t.id === id);
  return {
    team,
    assignments: (list?.assignments ?? []).filter((a) => a.teamId === id),
    isPending: live.isPending || (needAll && all.isPending),
    error: live.error ?? (needAll ? all.error : null),
    notFound: !id || (live.isSuccess && needAll && all.isSuccess && team === undefined),
    refetch: () => {
      void live.refetch();
      if (needAll) void all.refetch();
    },
  };
}
