// GET /api/system/gateway-wiring (issue 30 item 2, docs/gateway-wiring.md):
// for each gateway agent, whether svc's MCP servers are attached to it,
// whether its model calls pass svc's endpoint, and how svc meters its spend,
// each with why not and the fix. Names and reasons only, never a value.
import { z } from 'zod';
import type { AgentRouteView } from '../model-routing/status.ts';
import { MCP_SERVER_NAMES } from '../mcp/types.ts';
import type { WiringLedger } from './ledger.ts';
import type { DesiredState, PartsStatus } from './reconcile.ts';

export const WiringSettingsBody = z
  .object({ enabled: z.boolean().optional(), attach: z.boolean().optional() })
  .strict()
  .refine((b) => b.enabled !== undefined || b.attach !== undefined, 'enabled or attach (booleans) required');
export type WiringSettingsBody = z.infer<typeof WiringSettingsBody>;

export interface Verdict {
  ok: boolean;
  /** Why not (or, for metering, how), in a sentence; null when there is nothing to say. */
  reason: string | null;
  /** What a person can do about it; null when nothing is needed. */
  fix: string | null;
}

export interface WiringAgentView {
  gatewayId: string;
  /** The svc agent this gateway agent is, when svc knows it. */
  svcAgentId: string | null;
  name: string | null;
  onTeam: boolean;
  attached: Verdict;
  routed: Verdict;
  /** How svc counts this agent's spend against the budgets: before each call (routed), after each call (runs svc starts), or not at all. */
  metered: Verdict & { how: 'before-each-call' | 'after-each-call' | null };
}

/** The last round of the reconciler, as a person sees it. */
export interface ReconcileStatus {
  at: string;
  reason: string;
  ok: boolean;
  /** Why the round failed (redacted), or null. */
  error: string | null;
  via: 'gateway' | 'file' | 'none' | null;
  /** Config paths the round changed, and .env names it set or removed (never values). */
  changed: { config: number; env: string[] };
  /** Paths the read-back did not show as written (dotted). */
  mismatches: string[];
  parts: PartsStatus;
  /** No gateway to wire yet (not connected, no openclaw.json): the ordinary state of a fresh svc, not a failure. */
  noGateway: boolean;
}

export interface WiringView {
  enabled: boolean;
  attach: boolean;
  routing: boolean;
  gateway: {
    connected: boolean;
    /** The config svc wires (the running gateway's path, else svc's configured one); null before the first round. */
    configPath: string | null;
    /** Whether svc reaches the gateway's .env (attach and routing need it). */
    filesReachable: boolean;
  };
  /** The copy of openclaw.json from before svc's first change, when svc has one. */
  backup: string | null;
  /** How much of the gateway's config is svc's now. */
  owned: { servers: number; lists: number; denyLists: number; envNames: number };
  last: ReconcileStatus | null;
  agents: WiringAgentView[];
}

export interface ViewInput {
  settings: { enabled: boolean; attach: boolean; routing: boolean };
  connected: boolean;
  configPath: string | null;
  filesReachable: boolean;
  gatewayAgents: readonly string[];
  want: DesiredState;
  ledger: WiringLedger | null;
  last: WiringView['last'];
  /** The routing view's agents (their primaries: this view says whether an agent is routed, not each fallback). */
  routes: readonly Omit<AgentRouteView, 'fallbacks' | 'subagentModel'>[];
  /** svc's agents by gateway id (name, svc id). */
  known: ReadonlyMap<string, { id: string; name: string }>;
}

const ok = (reason: string | null = null): Verdict => ({ ok: true, reason, fix: null });
const no = (reason: string, fix: string | null): Verdict => ({ ok: false, reason, fix });

const WIRING_OFF = no("svc's wiring of the gateway is off", 'turn "svc wires itself into the gateway" on');
const NO_GATEWAY = no('no gateway to wire yet', 'connect svc to a gateway: Setup, or its URL and token in Settings');

function attached(input: ViewInput, gatewayId: string, onTeam: boolean): Verdict {
  const { settings, last, ledger } = input;
  if (!onTeam) return no('not on one of svc\'s teams', 'add it to a team: svc attaches its MCP servers to the agents of its teams');
  if (!settings.enabled) return WIRING_OFF;
  if (last?.noGateway) return NO_GATEWAY;
  if (!settings.attach) return no("attaching svc's MCP servers is off", 'turn "attach svc\'s MCP servers" on, or paste the attach snippet (GET /api/mcp/config?runtime=gateway&agentId=) into openclaw.json yourself');
  if (last?.parts.attach) return no(last.parts.attach, 'run the gateway on this machine with its state folder readable by svc, or paste the attach snippet into openclaw.json yourself');
  const mine = ledger?.servers.filter((s) => s.agent === gatewayId).length ?? 0;
  if (mine === MCP_SERVER_NAMES.length && last?.ok !== false) return ok();
  if (last && !last.ok && last.error) return no(last.error, 'see the last round below; svc tries again on the next change and on every reconnect');
  if (mine > 0) return no('an mcp.servers entry with one of svc\'s names is yours: svc left it alone', 'rename or remove your entry');
  return no('not attached yet', 'svc attaches it at the next round (Reconcile now)');
}

function routed(input: ViewInput, route: ViewInput['routes'][number] | undefined): Verdict {
  if (route?.routed) return ok();
  if (!input.settings.enabled) return WIRING_OFF;
  if (input.last?.noGateway) return NO_GATEWAY;
  if (input.last?.parts.routing) return no(input.last.parts.routing, 'run the gateway on this machine with its state folder readable by svc');
  switch (route?.reason) {
    case 'disabled':
      return no('model routing is off', 'turn model routing on');
    case 'oauth':
      return no("its model uses an OAuth login, which svc cannot hold on the gateway's behalf", 'use an API key for that provider to have each call checked before it is made');
    case 'no-upstream':
      return no('svc does not know where its provider is, or holds no key for it', 'give its provider an API key svc can hold (Configuration below), or a models.providers entry with an API svc speaks');
    default:
      return no('not routed yet', 'svc routes it at the next round (Reconcile now)');
  }
}

function metered(route: Verdict, onTeam: boolean): WiringAgentView['metered'] {
  if (route.ok) return { ok: true, how: 'before-each-call', reason: 'each call is reserved against its budgets before svc forwards it; a call that would pass a cap is refused', fix: null };
  if (onTeam) {
    return {
      ok: true,
      how: 'after-each-call',
      reason: "its calls go straight to the provider: svc counts each one from the gateway's usage after it ends, in the runs svc starts, so the call that crosses a cap is already spent",
      fix: route.fix,
    };
  }
  return { ok: false, how: null, reason: 'not routed and not on a team: svc sees none of its model calls', fix: 'add it to a team, or route it through svc' };
}

export function wiringView(input: ViewInput): WiringView {
  const onTeams = new Map(input.want.onTeams.map((t) => [t.gatewayId, t] as const));
  const ids = [...new Set([...input.gatewayAgents, ...onTeams.keys()])];
  const agents = ids.map((gatewayId): WiringAgentView => {
    const onTeam = onTeams.has(gatewayId);
    const known = input.known.get(gatewayId) ?? null;
    const route = routed(input, input.routes.find((r) => r.agentId === gatewayId));
    return {
      gatewayId,
      svcAgentId: known?.id ?? null,
      name: known?.name ?? null,
      onTeam,
      attached: attached(input, gatewayId, onTeam),
      routed: route,
      metered: metered(route, onTeam),
    };
  });
  const l = input.ledger;
  return {
    ...input.settings,
    gateway: { connected: input.connected, configPath: input.configPath, filesReachable: input.filesReachable },
    backup: l?.backup ?? null,
    owned: { servers: l?.servers.length ?? 0, lists: l?.allowBefore.length ?? 0, denyLists: l?.deny.length ?? 0, envNames: l?.bindings.length ?? 0 },
    last: input.last,
    agents,
  };
}
