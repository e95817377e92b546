// Who is in a team's chat: its members (live agents whose team is this one,
// oldest first) and its effective lead, by the server's own rule
// (shared/team-chat/routing/answerer.ts loadRoster): the team's leader when it is a live
// agent, else the global lead (GET /api/lead/override), else the oldest
// member. The lead may be outside the team (a global lead); it can still be
// addressed, as on the server.
import { useAllAgents } from '../../api/agents.ts';
import { useLeadOverride } from '../../api/lead.ts';
import type { Agent, Team } from '../../api/types.ts';

export interface Speaker {
  id: string;
  name: string;
  isLead: boolean;
  /** A member of the team (false for a lead from outside it). */
  member: boolean;
  /** The run state svc last stored for the agent (the stream's status frames are fresher). */
  storedStatus: string;
}

export interface Roster {
  speakers: Speaker[];
  lead: Speaker | null;
  isPending: boolean;
  error: Error | null;
  refetch: () => void;
}

export function useRoster(team: Team | undefined): Roster {
  // Every agent, archived included: one read serves the roster and the lead lookup.
  const agents = useAllAgents({ enabled: team !== undefined });
  const all = agents.data ?? [];
  const live = (id: string | null | undefined) => (id ? all.find((a) => a.id === id && a.isArchived === 0) : undefined);
  const members = team ? all.filter((a) => a.teamId === team.id && a.isArchived === 0) : [];
  const leader = live(team?.leaderAgentId);
  const needGlobal = agents.isSuccess && leader === undefined;
  const override = useLeadOverride({ enabled: needGlobal });
  const leadAgent = leader ?? live(override.data?.effective?.agentId) ?? (needGlobal && !override.isPending ? members[0] : undefined);
  const toSpeaker = (a: Agent, member: boolean): Speaker => ({ id: a.id, name: a.name, isLead: a.id === leadAgent?.id, member, storedStatus: a.status });
  const speakers = members.map((a) => toSpeaker(a, true));
  if (leadAgent && !members.some((a) => a.id === leadAgent.id)) speakers.push(toSpeaker(leadAgent, false));
  return {
    speakers,
    lead: speakers.find((s) => s.isLead) ?? null,
    isPending: team === undefined || agents.isPending || (needGlobal && override.isPending),
    error: agents.error ?? (needGlobal ? override.error : null),
    refetch: () => {
      void agents.refetch();
      if (needGlobal) void override.refetch();
    },
  };
}
