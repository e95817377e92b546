// Which svc agent and teams a Workboard card belongs to. A card names a
// gateway agent id; svc's agent is the live one whose gatewayId is that id
// (else whose own id is: agents made by team assignment have both equal).
// Its teams are the team it is a member of and every team it leads (a lead
// set on a team it is not a member of still sees its cards on that board).
// A card whose agent svc does not know, or knows in no team, has no teams:
// it shows on /board only.
import type { Agent } from '../agents/types.ts';
import type { Team } from '../teams/types.ts';

export interface CardOwner {
  /** svc's agent id when svc knows the gateway agent, else the gateway's id as given. */
  agentId: string;
  teamIds: string[];
}

export type OwnerLookup = (gatewayAgentId: string) => CardOwner;

export function ownerLookup(agents: readonly Pick<Agent, 'id' | 'gatewayId' | 'teamId'>[], teams: readonly Pick<Team, 'id' | 'leaderAgentId'>[]): OwnerLookup {
  const byGatewayId = new Map<string, Pick<Agent, 'id' | 'teamId'>>();
  const byId = new Map<string, Pick<Agent, 'id' | 'teamId'>>();
  for (const a of agents) {
    if (a.gatewayId !== null && !byGatewayId.has(a.gatewayId)) byGatewayId.set(a.gatewayId, a);
    byId.set(a.id, a);
  }
  const led = new Map<string, string[]>();
  for (const t of teams) {
    if (t.leaderAgentId === null) continue;
    led.set(t.leaderAgentId, [...(led.get(t.leaderAgentId) ?? []), t.id]);
  }
  return (gatewayAgentId) => {
    const agent = byGatewayId.get(gatewayAgentId) ?? byId.get(gatewayAgentId);
    if (!agent) return { agentId: gatewayAgentId, teamIds: [] };
    const teamIds = agent.teamId === null ? [] : [agent.teamId];
    for (const id of led.get(agent.id) ?? []) if (!teamIds.includes(id)) teamIds.push(id);
    return { agentId: agent.id, teamIds };
  };
}
