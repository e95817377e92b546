// What GET /api/system/model-routing answers (issue 22): whether routing is
// on, each gateway agent's route as the files show it now, the upstreams
// svc stands in front of with whether svc's vault holds their key (presence
// only), and the names under which the gateway's files still hold a real
// key. Key values never appear here.
import { keysInGatewayFiles } from './gateway-keys.ts';
import { planRouting, modelRefOf, SVC_PROVIDER_PREFIX, type NotRoutedReason, type PlanInput } from './plan.ts';
import type { RoutedApi } from './registry.ts';

export const ENABLED_KEY = 'model-routing:enabled';
/** The routed agents whose model is the defaults' (JSON list of ids). */
export const FROM_DEFAULT_KEY = 'model-routing:from-default';

export interface AgentRouteView {
  agentId: string;
  routed: boolean;
  /** Why not routed; null when routed, or when routing is on and the next sync will route it. */
  reason: NotRoutedReason | null;
  /** The provider the agent's model ref names now (`svc-<id>` when routed). */
  provider: string | null;
  upstream: string | null;
  model: string | null;
}

export interface ModelRoutingView {
  enabled: boolean;
  endpoint: string | null;
  agents: AgentRouteView[];
  upstreams: Array<{ id: string; api: RoutedApi; baseUrl: string; keyHeld: boolean }>;
  keysInGatewayFiles: string[];
  lastSync: { at: string; ok: boolean; error: string | null } | null;
}

/** The view from the files as they are; `input` is what a sync would plan from (no token minted, nothing written). */
export function routingView(input: PlanInput, extra: { endpoint: string | null; lastSync: ModelRoutingView['lastSync']; vaultHas: (name: string) => boolean }): ModelRoutingView {
  const plan = planRouting(input);
  const agents = plan.agents.map((route): AgentRouteView => {
    const ref = modelRefOf(input.config, route.agentId).ref;
    const provider = ref && ref.includes('/') ? ref.slice(0, ref.indexOf('/')) : null;
    const routed = input.enabled && provider === `${SVC_PROVIDER_PREFIX}${route.agentId}` && Object.hasOwn(input.registry.agents, route.agentId);
    return { agentId: route.agentId, routed, reason: routed ? null : route.reason, provider, upstream: route.upstream, model: route.model };
  });
  const upstreams = Object.entries(input.registry.upstreams).map(([id, u]) => ({
    id,
    api: u.api,
    baseUrl: u.baseUrl,
    keyHeld: u.keyName === null ? false : extra.vaultHas(u.keyName),
  }));
  return {
    enabled: input.enabled,
    endpoint: extra.endpoint,
    agents,
    upstreams,
    keysInGatewayFiles: keysInGatewayFiles(input.config, input.env, input.registry),
    lastSync: extra.lastSync,
  };
}
