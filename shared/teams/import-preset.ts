// Import a team the gateway made by itself (`openclaw agents team create`:
// a coordinator whose `subagents.allowAgents` lists its specialists) as an svc
// team in one action: the coordinator becomes the leader, its allowed agents
// the members. svc agents are registered for gateway agents svc does not know
// yet (gatewayId set); known ones are reused (and moved into the new team).
// The caller syncs the delegation lists afterwards.
import { z } from 'zod';
import type { Agent } from '../agents/types.ts';
import type { Tx } from '../db/tx.ts';
import type { Domain } from '../domain.ts';
import { conflict, notFound } from '../errors.ts';
import type { GatewayCall } from '../exec/gateway-policy.ts';
import { listGatewayAgents, type GatewayAgent } from '../gateway/agents-directory.ts';
import { getPath } from '../gateway/config-file.ts';
import { readAllowAgents } from '../gateway/subagents-config.ts';
import { readGatewayConfig } from '../settings/gateway-files.ts';
import type { Team } from './types.ts';

export const IMPORT_MESSAGES = {
  coordinatorRequired: 'coordinatorId required',
  notOnGateway: 'agent not found on the gateway',
  noSubagents: 'agent has no sub-agents to import',
} as const;

export const ImportBody = z.object({ coordinatorId: z.string().trim().min(1) });

/** The team an import creates looks like one made on the Teams page. */
export const IMPORTED_TEAM_STYLE = { icon: '🧭', color: '#2f6fde' } as const;

/** No gateway connection: nothing to import from (the route answers 503). */
export class GatewayUnavailableError extends Error {
  constructor() {
    super('gateway not reachable: start it on the Gateway page');
    this.name = 'GatewayUnavailableError';
  }
}

export interface ImportDeps {
  domain: Pick<Domain, 'agents' | 'teams'>;
  tx: Tx;
  call: GatewayCall;
  /** Whether svc has a gateway URL at all. */
  configured: boolean;
  stateDir: string;
}

/** An agent's name as its config entry gives it (`name`, else `identity.name`), as agents.list would show it. */
function configuredName(config: unknown, id: string): string | null {
  const entry = getPath(config, ['agents', 'entries', id]);
  const name = getPath(entry, ['name']) ?? getPath(entry, ['identity', 'name']);
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
}

/** The svc agent for a gateway agent: one whose gateway id (or, unset, own id) is it; else a new row. */
function svcAgentFor(agents: ImportDeps['domain']['agents'], gw: GatewayAgent): Agent {
  const known = agents.list({ includeArchived: true }).find((a) => (a.gatewayId ?? a.id) === gw.id && a.isArchived === 0);
  if (known) return known;
  // The gateway id doubles as svc's id when it is free: ids then read the same on both sides.
  const id = agents.get(gw.id) === null ? gw.id : undefined;
  return agents.create({ id, name: gw.name, gatewayId: gw.id });
}

export async function importPreset(deps: ImportDeps, coordinatorId: string): Promise<{ team: Team; agents: Agent[] }> {
  const view = await listGatewayAgents(deps.call, deps.configured);
  if (!view.reachable) throw new GatewayUnavailableError();
  const byId = new Map(view.agents.map((a) => [a.id, a]));
  const coordinator = byId.get(coordinatorId);
  if (!coordinator) throw notFound(IMPORT_MESSAGES.notOnGateway);
  const config = readGatewayConfig(deps.stateDir).config;
  const held = readAllowAgents(config);
  const allowed = held.get(coordinatorId) ?? [];
  // Only agents the gateway has: listed, or configured (the gateway may not have hot-reloaded the newest entry yet).
  // A `*` or a stale id is not an agent to register.
  const specialists = allowed
    .filter((id) => id !== coordinatorId)
    .flatMap((id) => byId.get(id) ?? (held.has(id) ? [{ id, name: configuredName(config, id) ?? id }] : []));
  if (specialists.length === 0) throw conflict(IMPORT_MESSAGES.noSubagents);

  const { agents, teams } = deps.domain;
  return deps.tx.run(() => {
    const lead = svcAgentFor(agents, coordinator);
    const team = teams.create({ name: coordinator.name, ...IMPORTED_TEAM_STYLE, leaderAgentId: lead.id });
    const members = specialists.map((gw) => svcAgentFor(agents, gw));
    for (const m of members) agents.assignToTeam(m.id, team.id, m.name);
    return { team: teams.get(team.id) as Team, agents: [lead, ...members].map((a) => agents.get(a.id) as Agent) };
  });
}
