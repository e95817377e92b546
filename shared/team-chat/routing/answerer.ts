// Who answers a team message (docs/team-chat.md, "Who answers a message"): an
// explicit roster member, else a leading `@<agent name>` (the longest
// matching name, case-insensitive, followed by whitespace or the end), else
// the team's effective lead. The same mention rule finds hand-overs in a
// reply (a line that starts with `@<name>`). The roster is read fresh for
// every message: a member added a moment ago can be addressed at once.
import type { Domain } from '../../domain.ts';
import { leadingMention } from './mention.ts';
import { teamFallbackSessionKey, teamSessionKey } from '../schemas.ts';

export interface RosterAgent {
  id: string;
  name: string;
  /** The agent's id on the gateway (null: the same as its svc id). */
  gatewayId: string | null;
}

export interface TeamRoster {
  teamId: string;
  /** Agents whose team is this one and that are not archived, oldest first. */
  members: RosterAgent[];
  /** The team's effective lead: the team's leader, else the global lead, else the oldest member. */
  lead: RosterAgent | null;
}

const pick = (a: { id: string; name: string; gatewayId: string | null }): RosterAgent => ({ id: a.id, name: a.name, gatewayId: a.gatewayId });

export function loadRoster(domain: Pick<Domain, 'agents' | 'teams' | 'lead'>, teamId: string): TeamRoster {
  const team = domain.teams.get(teamId);
  // A team that does not exist has no one to answer (not even the global lead): its messages are kept, not sent.
  if (!team) return { teamId, members: [], lead: null };
  const members = domain.agents.list({ teamId }).map(pick);
  const leaderId = team.leaderAgentId ?? null;
  const leader = leaderId ? domain.agents.getLive(leaderId) : null;
  const globalId = leader ? null : (domain.lead.effective()?.agentId ?? null);
  const global = globalId ? domain.agents.getLive(globalId) : null;
  const lead = leader ? pick(leader) : global ? pick(global) : (members[0] ?? null);
  return { teamId, members, lead };
}

/** Everyone a message or a reply can address: the members and the lead. */
export function addressable(roster: TeamRoster): RosterAgent[] {
  const out = [...roster.members];
  if (roster.lead && !out.some((a) => a.id === roster.lead?.id)) out.push(roster.lead);
  return out;
}

/** The agent that answers a user message, or null when the team has no agent at all. */
export function resolveTarget(roster: TeamRoster, message: string, targetAgentId?: string): RosterAgent | null {
  if (targetAgentId) {
    const explicit = roster.members.find((a) => a.id === targetAgentId);
    if (explicit) return explicit;
  }
  return leadingMention(message, addressable(roster)) ?? roster.lead;
}

/** Agents other than `self` that lines of a reply hand the floor to, in order of first mention. */
export function handOvers(reply: string, roster: TeamRoster, selfId: string): RosterAgent[] {
  const others = addressable(roster).filter((a) => a.id !== selfId);
  const out: RosterAgent[] = [];
  for (const line of reply.split('\n')) {
    const to = leadingMention(line.trim(), others);
    if (to && !out.some((a) => a.id === to.id)) out.push(to);
  }
  return out;
}

/** svc's transcript key of an agent in a team (or the team's fallback key when there is no agent). */
export const sessionKeyOf = (agent: RosterAgent | null, teamId: string): string =>
  agent ? teamSessionKey(agent.id, teamId) : teamFallbackSessionKey(teamId);

/** The gateway's session key: the agent's gateway id (its svc id when unset). */
export const gatewaySessionKeyOf = (agent: RosterAgent, teamId: string, suffix = ''): string =>
  `${teamSessionKey(agent.gatewayId ?? agent.id, teamId)}${suffix}`;

/**
 * The svc agent behind a gateway agent id (its gatewayId, else its own id): a member of the team first,
 * then any agent svc knows; else the gateway id stands in for one svc does not know (`known` false).
 */
export function agentOfGatewayId(domain: Pick<Domain, 'agents' | 'teams' | 'lead'>, teamId: string, gatewayAgentId: string): { agent: RosterAgent; known: boolean } {
  const inTeam = addressable(loadRoster(domain, teamId)).find((a) => (a.gatewayId ?? a.id) === gatewayAgentId);
  if (inTeam) return { agent: inTeam, known: true };
  const any = domain.agents.list({}).find((a) => (a.gatewayId ?? a.id) === gatewayAgentId);
  if (any) return { agent: pick(any), known: true };
  return { agent: { id: gatewayAgentId, name: gatewayAgentId, gatewayId: gatewayAgentId }, known: false };
}
