// The routing rule, pure (issue 22, docs/model-routing.md): from the
// gateway's files as they are (openclaw.json, .env), its agents, the
// registry svc wrote last time and what svc's vault holds, the changes that
// make every agent's model calls go through svc's endpoint (routing on) or
// straight to the provider again (routing off). Nothing here reads or
// writes a file, mints a token or touches the vault: sync.ts applies a plan.
//
// Routing on, for each agent with an upstream svc can stand in front of:
// its model ref becomes `svc-<agent>/<model>`, a provider entry `svc-<agent>`
// points at `http://127.0.0.1:<port>/model/<agent>/v1` with the agent's token
// as `${SVC_MODEL_TOKEN_<AGENT>}`, and the real key moves from the gateway's
// files to svc's vault (under its env var name, so that routing off and
// auto-configure find it by the name they know). Its fallbacks follow
// (fallbacks.ts): on the same upstream through `svc-<agent>`, on another
// through `svc-<agent>~<upstream>` (svc-refs.ts), each such upstream's key
// moved as the primary's is (take-upstream.ts). So does the model the agent
// runs on when spawned as a sub-agent (`subagents.model`, its primary and
// fallbacks, model-config.ts): otherwise a configured sub-agent model would
// call its provider directly, past every budget. What came from the defaults
// (the model, the fallbacks, the sub-agent model) is written into the
// agent's entry, remembered (from-default.ts) and removed again by routing off. Every change is
// computed against the current value: a second plan over its own result is empty.
import { getPath, isJsonObject, type JsonObject } from '../gateway/config-file.ts';
import { OpList, type ConfigOp } from '../gateway-wiring/config-ops.ts';
import type { AgentEntry, RoutingRegistry } from './registry.ts';
import { lookupUpstream, modelEntryFor, own, type NotRoutedReason } from './upstream-lookup.ts';
import { hostConfirmed } from './key-hosts.ts';
import { TOKEN_ENV_PREFIX, tokenEnvVar, tokenStateOf, type TokenStates } from './token-names.ts';
import {
  defaultFallbacks, defaultModelRef, defaultSubagentModel, fallbacksOf, modelRefOf, refsOfModelValue, subagentModelOf, withModelRefs, writeEntryModel,
  writeSubagentModel, type PartChange,
} from './model-config.ts';
import { routeFallbacks, splitRef, unrouteFallbacks, type FallbackRoute } from './fallbacks.ts';
import { takeUpstream, type TakeState } from './take-upstream.ts';
import { SVC_PROVIDER_PREFIX, svcBaseUrl, svcProviderId, svcViaBaseUrl, svcViaProviderId } from './svc-refs.ts';

export type { ConfigOp } from '../gateway-wiring/config-ops.ts';
export type { NotRoutedReason } from './upstream-lookup.ts';
export type { FallbackRoute } from './fallbacks.ts';
export { TOKEN_ENV_PREFIX, tokenEnvVar } from './token-names.ts';
export { modelRefOf } from './model-config.ts';
export { SVC_PROVIDER_PREFIX, svcBaseUrl, svcProviderId } from './svc-refs.ts';

/** What a revoked agent's token variable holds when svc writes it: no token's shape, so the endpoint answers 401. */
export const REVOKED_TOKEN_VALUE = 'svc-model-token-revoked';

export interface AgentRoute {
  agentId: string;
  /** The upstream provider id (a `models.providers` key or a built-in provider), when known. */
  upstream: string | null;
  /** The model id below the provider (`gpt-5.5` of `openai/gpt-5.5`). */
  model: string | null;
  /** Why the agent is not routed; null when the plan routes it. */
  reason: NotRoutedReason | null;
  /** Its fallbacks in order, each routed or not and why (an agent not routed: its reason). */
  fallbacks: FallbackRoute[];
  /** The refs of its sub-agent model (`subagents.model`, primary then fallbacks), each routed or not and why; empty when it has none of its own. */
  subagentModel: FallbackRoute[];
}

export interface PlanInput {
  enabled: boolean;
  config: JsonObject;
  env: Readonly<Record<string, string>>;
  agentIds: readonly string[];
  registry: RoutingRegistry;
  /** svc's own port (the endpoint's). */
  svcPort: number;
  vaultGet: (name: string) => string | null;
  /** Providers the gateway holds an OAuth login (auth profile of type oauth) for. */
  oauthProviders: ReadonlySet<string>;
  /** Whether `token` is a live model token of `agentId`. */
  tokenVerifies: (agentId: string, token: string) => boolean;
  /** Agents whose `svc-<id>` ref stands for the defaults' model (the plan's `fromDefault` of the last sync). */
  fromDefault: ReadonlySet<string>;
  /** Agents whose entry holds svc's copy of the defaults' fallbacks (the plan's `fallbacksFromDefault` of the last sync). */
  fallbacksFromDefault: ReadonlySet<string>;
  /** Agents whose entry holds svc's copy of the defaults' sub-agent model (the plan's `subagentsFromDefault` of the last sync). */
  subagentsFromDefault?: ReadonlySet<string>;
  /** Each agent's token generation and whether the operator revoked it (token-names.ts); absent: first name, live. */
  tokenStates?: TokenStates;
}

export interface RoutingPlan {
  agents: AgentRoute[];
  configOps: ConfigOp[];
  /** Written before the config: tokens and restored keys the new config names. */
  envBefore: Record<string, string>;
  /** Removed after the config: keys and tokens the new config no longer names. */
  envAfter: string[];
  /** Agents whose token must be minted (none that verifies in the vault or .env); the token goes to .env and the vault under `tokenVars[id]`. */
  mint: string[];
  /** Each routed agent's token variable (tokenEnvVar of its generation). */
  tokenVars: Record<string, string>;
  /** Token values to revoke once the config no longer uses them. */
  revoke: string[];
  vaultSet: Record<string, string>;
  /** Vault entries to drop (the tokens of agents that are gone). */
  vaultDelete: string[];
  registry: RoutingRegistry;
  /** Routed agents whose model is the defaults' (kept by the caller for the next plan; routing off removes their ref again). */
  fromDefault: string[];
  /** Agents whose fallbacks are the defaults' copied into their entry (kept likewise; routing off removes the copy). */
  fallbacksFromDefault: string[];
  /** Agents whose entry holds the defaults' sub-agent model copied with svc's refs (kept likewise; routing off removes the copy). */
  subagentsFromDefault: string[];
}

export function planRouting(input: PlanInput): RoutingPlan {
  const { config, env, registry } = input;
  const ops = new OpList(config);
  const take: TakeState = {
    ops,
    // Upstreams no agent uses any more stay named: routing off puts their keys back too.
    upstreams: input.enabled ? { ...registry.upstreams } : {},
    // Bindings outlive routing off: a key the vault still holds stays bound to where it was meant to go.
    keyHosts: { ...registry.keyHosts },
    reboundNow: new Set<string>(),
    vaultSet: {},
    envAfter: new Set<string>(),
    vaultGet: input.vaultGet,
  };
  const plan: RoutingPlan = {
    agents: [], configOps: ops.list, envBefore: {}, envAfter: [], mint: [], tokenVars: {}, revoke: [], vaultSet: take.vaultSet, vaultDelete: [],
    registry: { agents: {}, upstreams: take.upstreams, keyHosts: take.keyHosts }, fromDefault: [], fallbacksFromDefault: [], subagentsFromDefault: [],
  };
  const providers = getPath(config, ['models', 'providers']);
  const svcProviders = isJsonObject(providers) ? Object.keys(providers).filter((p) => p.startsWith(SVC_PROVIDER_PREFIX)) : [];
  const tokenNames = Object.keys(env).filter((n) => n.startsWith(TOKEN_ENV_PREFIX));
  const keep = new Set<string>();
  const ownIds = new Set(input.agentIds.map(svcProviderId));

  for (const agentId of input.agentIds) {
    const set = modelRefOf(config, agentId);
    const currentParts = set.ref === null ? null : splitRef(set.ref);
    // A ref already through svc names its upstream in the registry svc wrote;
    // one svc set in place of the defaults follows the defaults (a new default model is taken at the next sync).
    const routedNow = currentParts !== null && currentParts.provider.startsWith(SVC_PROVIDER_PREFIX);
    const viaDefault = set.inEntry === null || (routedNow && input.fromDefault.has(agentId));
    const defaultRef = defaultModelRef(config);
    const effective = routedNow && viaDefault ? (defaultRef === null ? null : splitRef(defaultRef)) : currentParts;
    const parts = effective && !(routedNow && viaDefault && effective.provider.startsWith(SVC_PROVIDER_PREFIX)) ? effective : null;
    const previous = Object.hasOwn(registry.agents, agentId) ? registry.agents[agentId] : undefined;

    // The fallbacks: the agent's own, or the defaults' (inherited now, svc's copy of them, or dropped by svc's string in place of the defaults' model).
    const fb = fallbacksOf(config, agentId);
    const svcCopy = fb.source !== 'defaults' && input.fallbacksFromDefault.has(agentId);
    const fallbacksViaDefault = fb.source === 'defaults' || svcCopy || (routedNow && viaDefault && set.inEntry === 'string');
    // The sub-agent model likewise: the entry's own, or the defaults' (inherited now, or svc's copy of them).
    const sub = subagentModelOf(config, agentId);
    const subCopy = sub.source === 'entry' && (input.subagentsFromDefault?.has(agentId) ?? false);
    /** The agent is not routed (now, or any more): its fallbacks go back to their own refs, svc's copy of the defaults' away with routing off. */
    const notRouted = (route: Omit<AgentRoute, 'fallbacks' | 'subagentModel'>, primary: PartChange<string>) => {
      const back = unrouteFallbacks(fb.refs, agentId, previous, route.reason);
      const subBack = unrouteFallbacks(refsOfModelValue(sub.value), agentId, previous, route.reason);
      plan.agents.push({ ...route, fallbacks: back.routes, subagentModel: subBack.routes });
      let fallbacks: PartChange<unknown[]> = fb.source === 'entry' ? { set: back.refs } : null;
      if (svcCopy && !input.enabled) fallbacks = { remove: true };
      else if (svcCopy) plan.fallbacksFromDefault.push(agentId);
      writeEntryModel(ops, config, agentId, primary, fallbacks);
      if (subCopy && !input.enabled) writeSubagentModel(ops, config, agentId, null);
      else if (sub.source === 'entry') writeSubagentModel(ops, config, agentId, withModelRefs(sub.value, subBack.refs));
      if (subCopy && input.enabled) plan.subagentsFromDefault.push(agentId);
    };

    if (!parts) {
      notRouted({ agentId, upstream: null, model: null, reason: input.enabled ? 'no-upstream' : 'disabled' }, null);
      continue;
    }
    const upstreamId = routedNow && !viaDefault ? (previous?.upstream ?? null) : parts.provider;
    if (!input.enabled) {
      const primary: PartChange<string> = routedNow && viaDefault ? { remove: true } : routedNow && upstreamId !== null ? { set: `${upstreamId}/${parts.model}` } : null;
      notRouted({ agentId, upstream: upstreamId, model: parts.model, reason: 'disabled' }, primary);
      continue;
    }
    if (upstreamId === null) {
      notRouted({ agentId, upstream: null, model: parts.model, reason: 'no-upstream' }, null);
      continue;
    }
    const lookup = lookupUpstream(input, upstreamId);
    if (!lookup.ok) {
      notRouted({ agentId, upstream: upstreamId, model: parts.model, reason: lookup.reason }, null);
      continue;
    }
    const { found } = lookup;
    if (viaDefault) plan.fromDefault.push(agentId);
    takeUpstream(take, upstreamId, found);

    const fallbackAgent = { agentId, upstream: upstreamId, previous, ownIds };
    const routed = routeFallbacks(input, fallbackAgent, fallbacksViaDefault ? defaultFallbacks(config) : fb.refs);
    const subValue = sub.source === 'defaults' || subCopy ? defaultSubagentModel(config) : sub.value;
    const subRouted = routeFallbacks(input, fallbackAgent, refsOfModelValue(subValue));
    plan.agents.push({ agentId, upstream: upstreamId, model: parts.model, reason: null, fallbacks: routed.routes, subagentModel: subRouted.routes });
    const ownModels = [...new Set([parts.model, ...routed.ownModels, ...subRouted.ownModels])];
    // Each other upstream once, with the models of both lists.
    for (const [id, v] of subRouted.via) {
      const there = routed.via.get(id);
      if (there) there.models = [...new Set([...there.models, ...v.models])];
      else routed.via.set(id, v);
    }
    const via: AgentEntry['via'] = {};
    for (const [id, v] of routed.via) {
      takeUpstream(take, id, v.found);
      via[id] = v.models;
    }
    plan.registry.agents[agentId] = { upstream: upstreamId, models: ownModels, via };

    const provider = svcProviderId(agentId);
    const tokenVar = tokenEnvVar(agentId, tokenStateOf(input.tokenStates ?? {}, agentId).generation);
    plan.tokenVars[agentId] = tokenVar;
    keep.add(provider);
    keep.add(tokenVar);
    const apiKey = `\${${tokenVar}}`;
    ops.merge(['models', 'providers', provider], { baseUrl: svcBaseUrl(input.svcPort, agentId), apiKey, api: found.entry.api, models: ownModels.map((m) => modelEntryFor(found.models, m)) });
    for (const [id, v] of routed.via) {
      const viaProvider = svcViaProviderId(agentId, id);
      keep.add(viaProvider);
      ops.merge(['models', 'providers', viaProvider], { baseUrl: svcViaBaseUrl(input.svcPort, agentId, id), apiKey, api: v.found.entry.api, models: v.models.map((m) => modelEntryFor(v.found.models, m)) });
    }
    // svc's copy of the defaults' fallbacks is written only when there are some: none is what the agent's own model already says.
    let fallbacks: PartChange<unknown[]> = fb.source === 'entry' && !svcCopy ? { set: routed.refs } : null;
    if (fallbacksViaDefault) {
      plan.fallbacksFromDefault.push(agentId);
      fallbacks = routed.refs.length > 0 ? { set: routed.refs } : { remove: true };
    }
    writeEntryModel(ops, config, agentId, { set: `${provider}/${parts.model}` }, fallbacks);
    // svc's copy of the defaults' sub-agent model is written only when some ref of it goes through svc.
    if (sub.source === 'entry' && !subCopy) writeSubagentModel(ops, config, agentId, withModelRefs(subValue, subRouted.refs));
    else if (subValue !== null && subRouted.routes.some((r) => r.routedRef !== null)) {
      writeSubagentModel(ops, config, agentId, withModelRefs(subValue, subRouted.refs));
      plan.subagentsFromDefault.push(agentId);
    } else if (subCopy) writeSubagentModel(ops, config, agentId, null);
    planToken(plan, input, agentId, tokenVar);
  }

  plan.registry.keyHosts = take.keyHosts;
  if (!input.enabled) {
    // Keys go back where the gateway reads them: the .env name the registry recorded, and `${NAME}` in a custom entry.
    // Not to an upstream whose base URL moved off the key's hosts: the gateway would send it there itself.
    for (const [id, upstream] of Object.entries(registry.upstreams)) {
      if (upstream.keyName === null || !hostConfirmed(take.keyHosts, upstream)) continue;
      const value = input.vaultGet(upstream.keyName);
      if (value === null) continue;
      if (env[upstream.keyName] !== value) plan.envBefore[upstream.keyName] = value;
      const custom = own(providers, id);
      if (isJsonObject(custom) && custom.apiKey === undefined) ops.set(['models', 'providers', id, 'apiKey'], `\${${upstream.keyName}}`);
    }
  }
  for (const p of svcProviders) if (!keep.has(p)) ops.remove(['models', 'providers', p]);
  for (const name of tokenNames) {
    if (keep.has(name)) continue;
    take.envAfter.add(name);
    // Routing off keeps the tokens (routing on again gives the gateway the same values); an agent gone loses its token.
    if (input.enabled && env[name]) {
      plan.revoke.push(env[name] as string);
      plan.vaultDelete.push(name);
    }
  }
  plan.envAfter = [...take.envAfter];
  return plan;
}

/**
 * The routed agent's token. The gateway reads .env into its environment
 * once per variable: a new value for a name it has seen is ignored until it
 * restarts. So an agent's token is minted once, kept in the vault, and
 * written again with the same value whenever routing comes back.
 */
function planToken(plan: RoutingPlan, input: PlanInput, agentId: string, tokenVar: string): void {
  const { env } = input;
  const inEnv = Object.hasOwn(env, tokenVar) ? env[tokenVar] : undefined;
  const kept = input.vaultGet(tokenVar);
  // Revoked by the operator: nothing is minted (the agent's calls are refused) until a rotation. The
  // variable stays defined (a dead value) so that the provider entry's reference resolves.
  if (tokenStateOf(input.tokenStates ?? {}, agentId).revoked) {
    if (inEnv === undefined) plan.envBefore[tokenVar] = REVOKED_TOKEN_VALUE;
    return;
  }
  if (kept !== null && input.tokenVerifies(agentId, kept)) {
    if (inEnv !== kept) {
      plan.envBefore[tokenVar] = kept;
      if (inEnv) plan.revoke.push(inEnv);
    }
  } else if (inEnv !== undefined && input.tokenVerifies(agentId, inEnv)) {
    plan.vaultSet[tokenVar] = inEnv;
  } else {
    plan.mint.push(agentId);
    if (inEnv) plan.revoke.push(inEnv);
  }
}
