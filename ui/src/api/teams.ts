// Teams (spec "Teams"; GET/POST /api/teams, PATCH/DELETE /api/teams/:id,
// members under /api/teams/:id/agents, the import of a team the gateway made
// under /api/teams/import). Every team key starts with ['teams']: the lists,
// and each team's own settings (team-settings.ts, runaway-limits.ts) under
// teamKeys.team(id). A team write reads the lists again, and the per-team
// views that follow the roster (delegation; runaway limits, read again as
// they always were); never the texts a person may be editing (rules, the
// onboarding, orchestration). Member writes, a delete and an import also
// read the agents again (their team changed).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { agentKeys } from './agents.ts';
import { api } from './client.ts';
import type { Agent, Assignment, Team, TeamCreate, TeamList, TeamPatch } from './types.ts';

const enc = encodeURIComponent;

export const teamKeys = {
  all: ['teams'] as const,
  lists: ['teams', 'list'] as const,
  list: (includeArchived: boolean) => ['teams', 'list', { includeArchived }] as const,
  /** One team's own settings live under this prefix. */
  team: (teamId: string) => ['teams', 'team', teamId] as const,
  rules: (teamId: string) => [...teamKeys.team(teamId), 'rules'] as const,
  onboarding: (teamId: string) => [...teamKeys.team(teamId), 'onboarding'] as const,
  orchestration: (teamId: string) => [...teamKeys.team(teamId), 'orchestration'] as const,
  delegation: (teamId: string) => [...teamKeys.team(teamId), 'delegation'] as const,
  runawayLimits: (teamId: string) => [...teamKeys.team(teamId), 'runaway-limits'] as const,
};

/** The per-team views a team write changes (the last element of their keys). */
const FOLLOW_THE_ROSTER = new Set<unknown>(['delegation', 'runaway-limits']);

/** What any team write reads again; the promise settles once the active ones are in. */
function reloadTeams(qc: QueryClient): Promise<unknown> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: teamKeys.lists }),
    qc.invalidateQueries({ queryKey: teamKeys.all, predicate: (q) => q.queryKey[1] === 'team' && FOLLOW_THE_ROSTER.has(q.queryKey[3]) }),
  ]);
}

/** A write that also moves agents between teams: the agents are read again too. */
function reloadTeamsAndAgents(qc: QueryClient): Promise<unknown> {
  return Promise.all([reloadTeams(qc), qc.invalidateQueries({ queryKey: agentKeys.all })]);
}

export function useTeams({ includeArchived }: { includeArchived: boolean }) {
  return useQuery({
    queryKey: teamKeys.list(includeArchived),
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

/** One team, from the live list; an archived team is looked up in the full list. */
export function useTeam(id: string | null | undefined): TeamState {
  const live = useTeams({ includeArchived: false });
  const inLive = live.data?.teams.find((t) => t.id === id);
  const needAll = live.isSuccess && inLive === undefined && !!id;
  const all = useQuery({
    queryKey: teamKeys.list(true),
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

export function useCreateTeam() {
  const qc = useQueryClient();
  return useMutation({
    // The create route writes the switch only when it is on (the spec); off, it takes a second write.
    mutationFn: async (body: TeamCreate) => {
      const { team } = await api<{ team: Team }>('/api/teams', { method: 'POST', body });
      if (body.serverOrchestrated === false) {
        await api(`/api/teams/${enc(team.id)}/orchestration`, { method: 'PUT', body: { serverOrchestrated: false } });
      }
      return team;
    },
    onSuccess: () => reloadTeams(qc),
  });
}

/** Rename, archive or unarchive, or set the leader. */
export function usePatchTeam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: TeamPatch & { id: string }) => api<{ team: Team }>(`/api/teams/${enc(id)}`, { method: 'PATCH', body }).then((r) => r.team),
    onSuccess: () => reloadTeams(qc),
  });
}

/** Deletes a team; its agents are kept (they leave it). */
export function useDeleteTeam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ ok: true }>(`/api/teams/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: () => reloadTeamsAndAgents(qc),
  });
}

/** Adds an agent to a team (POST makes the agent's row when svc does not know it yet). */
export function useAssignAgent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, agentId, agentName }: { teamId: string; agentId: string; agentName?: string | undefined }) =>
      api<{ ok: true }>(`/api/teams/${enc(teamId)}/agents`, { method: 'POST', body: agentName ? { agentId, agentName } : { agentId } }),
    onSuccess: () => reloadTeamsAndAgents(qc),
  });
}

/** Takes an agent off a team; the agent is kept. */
export function useUnassignAgent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, agentId }: { teamId: string; agentId: string }) =>
      api<{ ok: true }>(`/api/teams/${enc(teamId)}/agents/${enc(agentId)}`, { method: 'DELETE' }),
    onSuccess: () => reloadTeamsAndAgents(qc),
  });
}

/** Makes an svc team of a gateway coordinator and the agents it may spawn (candidates: gateway-agents.ts). */
export function useImportTeam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (coordinatorId: string) => api<{ team: Team; agents: Agent[] }>('/api/teams/import', { method: 'POST', body: { coordinatorId } }),
    onSuccess: () => reloadTeamsAndAgents(qc),
  });
}
