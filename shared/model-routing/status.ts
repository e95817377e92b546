// What GET /api/system/model-routing answers (issue 22): whether routing is
// on, each gateway agent's route as the files show it now (its fallbacks
// and its sub-agent model too: which go through svc, and why the others do not), the upstreams
// svc stands in front of with whether svc's vault holds their key (presence
// only) and whether the key may go to their host, each agent's model token
// state (never the token), and the names under which the gateway's files
// still hold a real key. Key values never appear here, nor an upstream URL's
// user-info or query values (redact-url.ts).
import { keysInGatewayFiles } from './gateway-keys.ts';
import { planRouting, modelRefOf, SVC_PROVIDER_PREFIX, type FallbackRoute, type NotRoutedReason, type PlanInput } from './plan.ts';
import { fallbacksOf, refsOfModelValue, subagentModelOf } from './model-config.ts';
import { svcEntryOf } from './svc-refs.ts';
import { hostConfirmed, originOf } from './key-hosts.ts';
import { redactUrl } from './redact-url.ts';
import type { RoutedApi, RoutingRegistry } from './registry.ts';
import { tokenEnvVar, tokenStateOf } from './token-names.ts';

export const ENABLED_KEY = 'model-routing:enabled';

export interface AgentRouteView {
  agentId: string;
  routed: boolean;
  /** Why not routed; null when routed, or when routing is on and the next sync will route it. */
  reason: NotRoutedReason | null;
  /** The provider the agent's model ref names now (`svc-<id>` when routed). */
  provider: string | null;
  upstream: string | null;
  model: string | null;
  /** Its fallbacks in the order the gateway tries them. */
  fallbacks: FallbackRouteView[];
  /** The model it runs on when spawned as a sub-agent (`subagents.model`, its entry's or the defaults'): primary, then fallbacks; empty when that is its own model. */
  subagentModel: FallbackRouteView[];
}

export interface FallbackRouteView {
  /** The fallback without svc: `<upstream>/<model>`, or an alias as the config spells it. */
  ref: string;
  upstream: string | null;
  model: string | null;
  /** The agent's ref names svc's entry for it and the registry lists its model there. */
  routed: boolean;
  /** Why not routed (`oauth`, `no-upstream`, …); null when routed, or when routing is on and the next sync will route it. */
  reason: NotRoutedReason | null;
}

export interface AgentTokenView {
  agentId: string;
  /** `live` (svc holds one that verifies), `revoked` (by the operator, until rotated), `none` (the next sync mints one). */
  state: 'live' | 'revoked' | 'none';
  /** The .env name the token goes under (changes with each rotation). Never the token. */
  envName: string;
}

/**
 * An upstream's key state: `ok` (held, and its host is one the key is bound
 * to, or no key needed), `key-missing` (svc's vault lacks it), or
 * `key-unconfirmed` (the base URL's origin is not one the key was stored for:
 * svc sends no key and refuses the calls until the operator confirms the host).
 */
export type UpstreamState = 'ok' | 'key-missing' | 'key-unconfirmed';

export interface UpstreamView {
  id: string;
  api: RoutedApi;
  /** Redacted: no user-info, query values replaced. */
  baseUrl: string;
  /** The base URL's origin (scheme, host, port): what a confirmation binds the key to. */
  origin: string | null;
  keyHeld: boolean;
  hostConfirmed: boolean;
  state: UpstreamState;
}

export interface ModelRoutingView {
  enabled: boolean;
  endpoint: string | null;
  agents: AgentRouteView[];
  upstreams: UpstreamView[];
  /** Each gateway agent's model token state. */
  tokens: AgentTokenView[];
  keysInGatewayFiles: string[];
  lastSync: { at: string; ok: boolean; error: string | null } | null;
}

/** The view from the files as they are; `input` is what a sync would plan from (no token minted, nothing written). */
export function routingView(input: PlanInput, extra: { endpoint: string | null; lastSync: ModelRoutingView['lastSync']; vaultHas: (name: string) => boolean }): ModelRoutingView {
  const plan = planRouting(input);
  const states = input.tokenStates ?? {};
  const agents = plan.agents.map((route): AgentRouteView => {
    const ref = modelRefOf(input.config, route.agentId).ref;
    const provider = ref && ref.includes('/') ? ref.slice(0, ref.indexOf('/')) : null;
    const routed = input.enabled && provider === `${SVC_PROVIDER_PREFIX}${route.agentId}` && Object.hasOwn(input.registry.agents, route.agentId);
    /** Each route as the files show it: through svc when the ref there is svc's and the registry lists its model. */
    const viewOf = (routes: readonly FallbackRoute[], current: readonly unknown[]) =>
      routes.map((f): FallbackRouteView => {
        const through = input.enabled && f.routedRef !== null && current.includes(f.routedRef) && registryLists(input.registry, route.agentId, f);
        return { ref: f.ref, upstream: f.upstream, model: f.model, routed: through, reason: through ? null : f.reason };
      });
    const fallbacks = viewOf(route.fallbacks, fallbacksOf(input.config, route.agentId).refs);
    const subagentModel = viewOf(route.subagentModel, refsOfModelValue(subagentModelOf(input.config, route.agentId).value));
    return { agentId: route.agentId, routed, reason: routed ? null : route.reason, provider, upstream: route.upstream, model: route.model, fallbacks, subagentModel };
  });
  const tokens = input.agentIds.map((agentId): AgentTokenView => {
    const state = tokenStateOf(states, agentId);
    const envName = tokenEnvVar(agentId, state.generation);
    const held = input.vaultGet(envName);
    return { agentId, envName, state: state.revoked ? 'revoked' : held !== null && input.tokenVerifies(agentId, held) ? 'live' : 'none' };
  });
  const upstreams = Object.entries(input.registry.upstreams).map(([id, u]): UpstreamView => {
    const keyHeld = u.keyName === null ? false : extra.vaultHas(u.keyName);
    const confirmed = hostConfirmed(input.registry.keyHosts, u);
    const state: UpstreamState = !confirmed ? 'key-unconfirmed' : u.keyName !== null && !keyHeld ? 'key-missing' : 'ok';
    return { id, api: u.api, baseUrl: redactUrl(u.baseUrl), origin: originOf(u.baseUrl), keyHeld, hostConfirmed: confirmed, state };
  });
  return {
    enabled: input.enabled,
    endpoint: extra.endpoint,
    agents,
    upstreams,
    tokens,
    keysInGatewayFiles: keysInGatewayFiles(input.config, input.env, input.registry),
    lastSync: extra.lastSync,
  };
}

/** Whether the registry the endpoint reads lists the fallback's model on the svc entry its ref names. */
function registryLists(registry: RoutingRegistry, agentId: string, f: FallbackRoute): boolean {
  const entry = Object.hasOwn(registry.agents, agentId) ? registry.agents[agentId] : undefined;
  const provider = f.routedRef?.slice(0, f.routedRef.indexOf('/')) ?? '';
  const which = svcEntryOf(agentId, provider);
  if (!entry || which === null || f.model === null) return false;
  if (which.kind === 'own') return entry.upstream === f.upstream && entry.models.includes(f.model);
  return Object.hasOwn(entry.via, which.upstream) && (entry.via[which.upstream] as string[]).includes(f.model);
}
