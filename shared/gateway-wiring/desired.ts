// svc's side of what it wires into the gateway, read from svc's own state:
// the settings, the roster lists (the rule in shared/teams/delegation-sync.ts)
// and the gateway agents on svc's teams. Pure reads; the fingerprint says
// whether anything that matters changed since the last reconcile.
import type { Db } from '../db/open.ts';
import type { SettingsTable } from '../db/settings-table.ts';
import type { Domain } from '../domain.ts';
import { ENABLED_KEY as ROUTING_KEY } from '../model-routing/status.ts';
import { LEAD_KEYS, TEAM_KEYS } from '../setting-keys.ts';
import { allowAgentsFor, gatewayIdOf, loadDelegationInput } from '../teams/delegation-sync.ts';
import { addressable, loadRoster } from '../team-chat/routing/answerer.ts';
import type { AttachTarget } from './attach.ts';
import type { DesiredState } from './reconcile.ts';

/** The settings (default on): svc writes into the gateway at all; and it attaches its MCP servers. */
export const WIRING_KEYS = {
  enabled: 'gateway-wiring:enabled',
  attach: 'gateway-wiring:attach',
} as const;

export const isOn = (settings: Pick<SettingsTable, 'get'>, key: string): boolean => settings.get(key) !== 'false';

/** The gateway-runtime agents of svc's live teams (members and each team's effective lead), one per gateway id. */
export function agentsOnTeams(domain: Pick<Domain, 'agents' | 'teams' | 'lead'>): AttachTarget[] {
  const out = new Map<string, AttachTarget>();
  for (const team of domain.teams.list(false).teams) {
    for (const a of addressable(loadRoster(domain, team.id))) {
      const agent = domain.agents.get(a.id);
      if (!agent || agent.runtime !== 'gateway') continue;
      const gatewayId = gatewayIdOf(a);
      if (!out.has(gatewayId)) out.set(gatewayId, { gatewayId, svcAgentId: a.id, teamId: agent.teamId });
    }
  }
  return [...out.values()];
}

export interface DesiredDeps {
  domain: Pick<Domain, 'agents' | 'teams' | 'lead'>;
  settings: Pick<SettingsTable, 'get'>;
  routing: () => boolean;
  svcPort: () => number | null;
}

export function desiredState(deps: DesiredDeps): DesiredState {
  const { known, teams } = loadDelegationInput(deps.domain, deps.settings);
  return {
    wiring: isOn(deps.settings, WIRING_KEYS.enabled),
    attach: isOn(deps.settings, WIRING_KEYS.attach),
    routing: deps.routing(),
    svcPort: deps.svcPort(),
    allowAgents: allowAgentsFor(known, teams),
    onTeams: agentsOnTeams(deps.domain),
  };
}

/**
 * A cheap stamp of everything the desired state is read from: the agents and
 * teams tables (row count and newest update: a create, an edit, an
 * assignment and a delete each move one) and the settings it reads. Equal
 * stamps, equal desired state; a different stamp says "compute it again"
 * (an agent's run status moves it too, and changes nothing that matters).
 */
export function createSvcSideStamp(db: Db): () => string {
  const keys = [LEAD_KEYS.override, ROUTING_KEY, WIRING_KEYS.enabled, WIRING_KEYS.attach];
  const stmt = db
    .prepare(
      `SELECT (SELECT count(*) || ':' || coalesce(max(updated_at), 0) FROM agents) || '|' ||
              (SELECT count(*) || ':' || coalesce(max(updated_at), 0) FROM teams) || '|' ||
              (SELECT count(*) || ':' || coalesce(max(updated_at), 0) FROM settings
                 WHERE key IN (${keys.map(() => '?').join(', ')}) OR key LIKE ? ESCAPE '\\')`,
    )
    .pluck();
  const subDelegation = `${TEAM_KEYS.subDelegation('').replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  return () => stmt.get(...keys, subDelegation) as string;
}

/** A stable text of the desired state: equal texts, nothing to do on svc's side. */
export function fingerprintOf(want: DesiredState): string {
  const lists = [...want.allowAgents].map(([id, l]) => [id, [...l].sort()] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const teams = [...want.onTeams].sort((a, b) => (a.gatewayId < b.gatewayId ? -1 : 1));
  return JSON.stringify([want.wiring, want.attach, want.routing, want.svcPort, lists, teams]);
}
