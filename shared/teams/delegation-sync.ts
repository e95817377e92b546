// One roster, enforced in the gateway (issue 23 item 1). svc owns teams; the
// gateway enforces who may `sessions_spawn` whom through each agent's
// `subagents.allowAgents`. The rule, for every agent svc knows: the members of
// every live team it is the effective lead of (loadRoster decides the lead),
// plus, where a team it belongs to has sub-delegation on, that team's other
// members. Everyone else svc knows gets []. Ids are gateway ids. Agents svc
// does not know are not touched (shared/gateway/subagents-config.ts writes).
import type { SettingsTable } from '../db/settings-table.ts';
import type { Domain } from '../domain.ts';
import { messageOf } from '../errors.ts';
import { allowAgentsPatch, backUpConfig, patchThroughGateway, pendingAllowAgents, writeAllowAgents, type GatewayCall, type SubagentsWrite } from '../gateway/subagents-config.ts';
import type { ConfigLog } from '../gateway/config-file.ts';
import { TEAM_KEYS } from '../setting-keys.ts';
import { loadRoster, type TeamRoster } from '../team-chat/target.ts';

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

/** The last sync as a person sees it in GET /api/teams/:id/delegation. */
export interface DelegationSyncStatus {
  /** When openclaw.json last matched svc's teams (written or already right); null before the first sync. */
  syncedAt: number | null;
  /** Why the last sync did not write (redacted); null when it did or had nothing to do. */
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

export interface DelegationSync {
  /** Rewrites allowAgents from the roster; never rejects (a failure is logged and kept in status()). */
  sync(reason: string): Promise<DelegationSyncStatus>;
  status(): DelegationSyncStatus;
}

export interface DelegationSyncDeps {
  domain: Pick<Domain, 'agents' | 'teams' | 'lead'>;
  settings: Pick<SettingsTable, 'get'>;
  /** The gateway's state folder (config.gatewayStateDir). */
  stateDir: string;
  log: ConfigLog & { error(fields: object, msg: string): void };
  redact: (s: string) => string;
  /**
   * The running gateway, when svc is connected to it. Its own `config.patch`
   * applies the lists at once: a file written beside a running gateway was
   * seen to go unnoticed by its watcher after the gateway had written the
   * file itself (the preset CLI does), so the file is written only when
   * the gateway is not connected or the patch fails.
   */
  gateway?: { connected(): boolean; call: GatewayCall };
  now?: () => number;
}

export const SYNC_MESSAGES = {
  corrupt: 'openclaw.json is not valid JSON: svc did not write the delegation lists',
} as const;

export function createDelegationSync({ domain, settings, stateDir, log, redact, gateway, now = Date.now }: DelegationSyncDeps): DelegationSync {
  let last: DelegationSyncStatus = { syncedAt: null, error: null };
  /** Through the running gateway's own config.patch; null when it is not connected or the call failed (the file write follows). */
  const viaGateway = async (want: Map<string, string[]>, reason: string): Promise<SubagentsWrite | null> => {
    if (!gateway?.connected()) return null;
    const pending = pendingAllowAgents(stateDir, want);
    if (pending.kind !== 'changes') return pending;
    if (pending.changes.length === 0) return { kind: 'unchanged' };
    // A path is dotted: an id with a dot in it could not be named; the file write handles it.
    if (pending.changes.some(([id]) => id.includes('.'))) return null;
    try {
      backUpConfig(stateDir);
      await patchThroughGateway(gateway.call, allowAgentsPatch(pending.changes));
      const agents = pending.changes.map(([id]) => id);
      log.info({ agents, reason }, 'gateway subagents.allowAgents patched from svc teams');
      return { kind: 'written', agents };
    } catch (err) {
      log.warn({ reason, error: redact(messageOf(err)) }, 'config.patch of the delegation lists failed; writing the file instead');
      return null;
    }
  };
  return {
    async sync(reason) {
      try {
        const { known, teams } = loadDelegationInput(domain, settings);
        const want = allowAgentsFor(known, teams);
        const result = (await viaGateway(want, reason)) ?? writeAllowAgents(stateDir, want, log);
        if (result.kind === 'corrupt') {
          last = { syncedAt: last.syncedAt, error: SYNC_MESSAGES.corrupt };
          log.warn({ reason }, SYNC_MESSAGES.corrupt);
        } else if (result.kind === 'no-config') {
          // No gateway configured yet: nothing to keep in step; the next roster change writes once it exists.
          last = { syncedAt: last.syncedAt, error: null };
        } else {
          last = { syncedAt: now(), error: null };
        }
      } catch (err) {
        // The roster change that called this stands: the gateway keeps its previous lists until the next sync.
        const error = redact(messageOf(err));
        last = { syncedAt: last.syncedAt, error };
        log.error({ reason, error }, 'writing the gateway delegation lists failed');
      }
      return last;
    },
    status: () => last,
  };
}
