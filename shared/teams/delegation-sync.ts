// One roster, enforced in the gateway (issue 23 item 1). svc owns teams; the
// gateway enforces who may `sessions_spawn` whom through each agent's
// `subagents.allowAgents`. The rule, for every agent svc knows: the members of
// every live team it is the effective lead of (loadRoster decides the lead),
// plus, where a team it belongs to has sub-delegation on, that team's other
// members. Everyone else svc knows gets []. Ids are gateway ids. Agents svc
// does not know are not touched (the gateway reconciler writes the lists:
// shared/gateway-wiring/roster.ts).
import type { SettingsTable } from '../db/settings-table.ts';
import type { Domain } from '../domain.ts';
import { TEAM_KEYS } from '../setting-keys.ts';
import { loadRoster, type TeamRoster } from '../team-chat/routing/answerer.ts';

export interface KnownAgent {
  id: string;
  gatewayId: string | null;
}

export interface TeamPolicy {
  roster: TeamRoster;
  subDelegation: boolean;
}

export const gatewayIdOf = (a: KnownAgent): string => a.gatewayId ?? a.id;

/** The rule, pure: gateway id -> the gateway ids it may spawn, for every known agent. */
export function allowAgentsFor(known: readonly KnownAgent[], teams: readonly TeamPolicy[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const grant = (from: string, to: readonly string[]) => {
    const list = out.get(from) ?? [];
    // An agent may always spawn under its own id (the gateway's default): never listed.
    for (const id of to) if (id !== from && !list.includes(id)) list.push(id);
    out.set(from, list);
  };
  for (const agent of known) grant(gatewayIdOf(agent), []);
  for (const { roster, subDelegation } of teams) {
    const members = roster.members.map(gatewayIdOf);
    if (roster.lead) grant(gatewayIdOf(roster.lead), members);
    if (subDelegation) for (const m of roster.members) grant(gatewayIdOf(m), members);
  }
  return out;
}

/** The team setting `team-subdelegation:<teamId>`: on only when it is the literal `true` (default off). */
export const isSubDelegation = (settings: Pick<SettingsTable, 'get'>, teamId: string): boolean =>
  settings.get(TEAM_KEYS.subDelegation(teamId)) === 'true';

/** The rule's inputs as svc holds them now: every agent (archived too), every live team's roster and policy. */
export function loadDelegationInput(domain: Pick<Domain, 'agents' | 'teams' | 'lead'>, settings: Pick<SettingsTable, 'get'>): { known: KnownAgent[]; teams: TeamPolicy[] } {
  const known = domain.agents.list({ includeArchived: true });
  const teams = domain.teams.list(false).teams.map((t) => ({ roster: loadRoster(domain, t.id), subDelegation: isSubDelegation(settings, t.id) }));
  return { known, teams };
}

/** The last reconcile of the lists as a person sees it in GET /api/teams/:id/delegation. */
export interface DelegationSyncStatus {
  /** When the gateway last held svc's lists (written or already right); null before the first time. */
  syncedAt: number | null;
  /** Why the last round did not write (redacted); null when it did or had nothing to do. */
  error: string | null;
}

/** GET and PUT /api/teams/:id/delegation answer this. */
export interface DelegationView {
  teamId: string;
  subDelegation: boolean;
  /** What openclaw.json holds now for the team's lead and members that have a gateway entry ([] when unset). */
  allowAgents: Record<string, string[]>;
  /** The last write of the lists: when it matched svc's teams, and why it did not. */
  sync: DelegationSyncStatus;
}
