// The fallback rule of routing (docs/model-routing.md "Fallbacks"): each
// fallback ref of a routed agent whose upstream svc can stand in front of
// (lookupUpstream, as for the primary) goes through svc too, under that
// agent's token, so its calls are attributed and capped as the agent's. A
// fallback on the primary's upstream is one more model of `svc-<agent>`; one
// on another upstream goes through `svc-<agent>~<upstream>` (svc-refs.ts).
// A fallback svc cannot route (an OAuth login, no key, an API svc does not
// speak, an alias svc cannot resolve) is left as it is and reported with why.
// Pure: plan.ts writes the providers, the refs and the registry.
import { providerOfModel } from '../gateway/providers.ts';
import type { AgentEntry } from './registry.ts';
import { SVC_PROVIDER_PREFIX, svcEntryOf, svcProviderId, svcViaProviderId, viaNameable } from './svc-refs.ts';
import type { FoundUpstream } from './take-upstream.ts';
import { lookupUpstream, type NotRoutedReason, type UpstreamInput } from './upstream-lookup.ts';

export interface FallbackRoute {
  /** The fallback as it is without svc (`openai/gpt-5-mini`, or an alias as the config spells it). */
  ref: string;
  upstream: string | null;
  model: string | null;
  /** The ref svc gives it (`svc-<agent>/<model>`, `svc-<agent>~<upstream>/<model>`); null when not routed. */
  routedRef: string | null;
  /** Why it is not routed; null when routed. */
  reason: NotRoutedReason | null;
}

export const splitRef = (ref: string): { provider: string; model: string } | null => {
  const provider = providerOfModel(ref);
  return provider ? { provider, model: ref.slice(provider.length + 1) } : null;
};

/**
 * A fallback ref as it is without svc: one of this agent's svc refs back to
 * `<upstream>/<model>` (its own entry's upstream from the registry svc wrote
 * last, a via entry's from its id; null when svc cannot tell), any other as it is.
 */
export function unroutedRef(ref: string, agentId: string, previous: AgentEntry | undefined): string | null {
  const parts = splitRef(ref);
  const entry = parts === null ? null : svcEntryOf(agentId, parts.provider);
  if (parts === null || entry === null) return ref;
  if (entry.kind === 'via') return `${entry.upstream}/${parts.model}`;
  return previous ? `${previous.upstream}/${parts.model}` : null;
}

/** The agent's fallbacks without svc (an svc ref svc cannot place stays as it is), each reported not routed for `reason`. */
export function unrouteFallbacks(refs: readonly unknown[], agentId: string, previous: AgentEntry | undefined, reason: NotRoutedReason | null): { refs: unknown[]; routes: FallbackRoute[] } {
  const out: unknown[] = [];
  const routes: FallbackRoute[] = [];
  for (const raw of refs) {
    const ref = typeof raw === 'string' ? (unroutedRef(raw, agentId, previous) ?? raw) : raw;
    out.push(ref);
    if (typeof ref !== 'string') continue;
    const parts = splitRef(ref);
    routes.push({ ref, upstream: parts?.provider ?? null, model: parts?.model ?? ref, routedRef: null, reason });
  }
  return { refs: out, routes };
}

export interface RoutedFallbacks {
  /** The fallback list with svc's refs in place of the routable ones; everything else as it was. */
  refs: unknown[];
  routes: FallbackRoute[];
  /** Models on the primary's upstream: `svc-<agent>` lists them after the primary. */
  ownModels: string[];
  /** Other upstreams: id → what the lookup found there and the models routed to it. */
  via: Map<string, { found: FoundUpstream; models: string[] }>;
}

export interface FallbackAgent {
  agentId: string;
  /** The primary's upstream id (its fallbacks there go through `svc-<agent>`). */
  upstream: string;
  /** The registry entry svc wrote for the agent last time (to place its `svc-<agent>` refs). */
  previous: AgentEntry | undefined;
  /** Every agent's `svc-<agent>` id: a via id equal to one is not used. */
  ownIds: ReadonlySet<string>;
}

export function routeFallbacks(input: UpstreamInput, agent: FallbackAgent, refs: readonly unknown[]): RoutedFallbacks {
  const { agentId } = agent;
  const out: RoutedFallbacks = { refs: [], routes: [], ownModels: [], via: new Map() };
  const lookups = new Map<string, ReturnType<typeof lookupUpstream>>();
  const notRouted = (kept: unknown, route: Omit<FallbackRoute, 'routedRef'>) => {
    out.refs.push(kept);
    out.routes.push({ ...route, routedRef: null });
  };
  for (const raw of refs) {
    if (typeof raw !== 'string' || raw === '') {
      out.refs.push(raw);
      continue;
    }
    const ref = unroutedRef(raw, agentId, agent.previous);
    const parts = ref === null ? null : splitRef(ref);
    // An alias or a bare model id (OpenClaw resolves them with its catalog), an svc ref svc cannot place, another agent's svc entry.
    if (ref === null || parts === null || parts.provider.startsWith(SVC_PROVIDER_PREFIX)) {
      notRouted(raw, { ref: ref ?? raw, upstream: parts?.provider ?? null, model: parts?.model ?? ref ?? raw, reason: 'no-upstream' });
      continue;
    }
    const { provider, model } = parts;
    if (provider === agent.upstream) {
      if (!out.ownModels.includes(model)) out.ownModels.push(model);
      out.refs.push(`${svcProviderId(agentId)}/${model}`);
      out.routes.push({ ref, upstream: provider, model, routedRef: `${svcProviderId(agentId)}/${model}`, reason: null });
      continue;
    }
    const viaId = svcViaProviderId(agentId, provider);
    if (!viaNameable(agentId) || agent.ownIds.has(viaId)) {
      notRouted(ref, { ref, upstream: provider, model, reason: 'no-upstream' });
      continue;
    }
    const lookup = lookups.get(provider) ?? lookupUpstream(input, provider);
    lookups.set(provider, lookup);
    if (!lookup.ok) {
      notRouted(ref, { ref, upstream: provider, model, reason: lookup.reason });
      continue;
    }
    const via = out.via.get(provider) ?? { found: lookup.found, models: [] };
    if (!via.models.includes(model)) via.models.push(model);
    out.via.set(provider, via);
    out.refs.push(`${viaId}/${model}`);
    out.routes.push({ ref, upstream: provider, model, routedRef: `${viaId}/${model}`, reason: null });
  }
  return out;
}
