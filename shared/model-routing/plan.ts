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
// auto-configure find it by the name they know). Every change is computed
// against the current value: a second plan over its own result is empty.
import { providerOfModel } from '../gateway/providers.ts';
import { getPath, isJsonObject, type JsonObject } from '../gateway/config-file.ts';
import { OpList, type ConfigOp } from '../gateway-wiring/config-ops.ts';
import type { RoutingRegistry } from './registry.ts';

export type { ConfigOp } from '../gateway-wiring/config-ops.ts';
import { lookupUpstream, modelEntryFor, own, type NotRoutedReason } from './upstream-lookup.ts';

import { hostConfirmed, originOf, withHost, type KeyHosts } from './key-hosts.ts';
import { TOKEN_ENV_PREFIX, tokenEnvVar, tokenStateOf, type TokenStates } from './token-names.ts';

export type { NotRoutedReason } from './upstream-lookup.ts';
export { TOKEN_ENV_PREFIX, tokenEnvVar } from './token-names.ts';

export const SVC_PROVIDER_PREFIX = 'svc-';
/** What a revoked agent's token variable holds when svc writes it: no token's shape, so the endpoint answers 401. */
export const REVOKED_TOKEN_VALUE = 'svc-model-token-revoked';
export const svcProviderId = (agentId: string): string => `${SVC_PROVIDER_PREFIX}${agentId}`;
/** The base URL the gateway is given for an agent: every API it speaks appends its own path below `/v1`. */
export const svcBaseUrl = (port: number, agentId: string): string => `http://127.0.0.1:${port}/model/${encodeURIComponent(agentId)}/v1`;

export interface AgentRoute {
  agentId: string;
  /** The upstream provider id (a `models.providers` key or a built-in provider), when known. */
  upstream: string | null;
  /** The model id below the provider (`gpt-5.5` of `openai/gpt-5.5`). */
  model: string | null;
  /** Why the agent is not routed; null when the plan routes it. */
  reason: NotRoutedReason | null;
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
}

/** The agent's model ref and where it is set: its entry (string or `{primary}`), else the defaults. */
export function modelRefOf(config: unknown, agentId: string): { ref: string | null; inEntry: 'string' | 'object' | null } {
  const entryModel = own(own(getPath(config, ['agents', 'entries']), agentId), 'model');
  if (typeof entryModel === 'string' && entryModel !== '') return { ref: entryModel, inEntry: 'string' };
  const primary = own(entryModel, 'primary');
  if (typeof primary === 'string' && primary !== '') return { ref: primary, inEntry: 'object' };
  return { ref: defaultModelRef(config), inEntry: null };
}

function defaultModelRef(config: unknown): string | null {
  const model = getPath(config, ['agents', 'defaults', 'model']);
  if (typeof model === 'string' && model !== '') return model;
  const primary = own(model, 'primary');
  return typeof primary === 'string' && primary !== '' ? primary : null;
}

const splitRef = (ref: string): { provider: string; model: string } | null => {
  const provider = providerOfModel(ref);
  return provider ? { provider, model: ref.slice(provider.length + 1) } : null;
};

/** Sets the agent's model ref where it is set today (the entry's string or `{primary}`; a new entry string otherwise). */
function setModelRef(ops: OpList, config: JsonObject, agentId: string, ref: string): void {
  const { inEntry } = modelRefOf(config, agentId);
  if (inEntry === 'object') ops.set(['agents', 'entries', agentId, 'model', 'primary'], ref);
  else ops.set(['agents', 'entries', agentId, 'model'], ref);
}

export function planRouting(input: PlanInput): RoutingPlan {
  const { config, env, registry } = input;
  const ops = new OpList(config);
  // Upstreams no agent uses any more stay named: routing off puts their keys back too.
  const upstreams = input.enabled ? { ...registry.upstreams } : {};
  // Bindings outlive routing off: a key the vault still holds stays bound to where it was meant to go.
  let keyHosts: KeyHosts = { ...registry.keyHosts };
  const reboundNow = new Set<string>();
  const tokenStates = input.tokenStates ?? {};
  const plan: RoutingPlan = {
    agents: [], configOps: ops.list, envBefore: {}, envAfter: [], mint: [], tokenVars: {}, revoke: [], vaultSet: {}, vaultDelete: [],
    registry: { agents: {}, upstreams, keyHosts }, fromDefault: [],
  };
  const envAfter = new Set<string>();
  const providers = getPath(config, ['models', 'providers']);
  const svcProviders = isJsonObject(providers) ? Object.keys(providers).filter((p) => p.startsWith(SVC_PROVIDER_PREFIX)) : [];
  const tokenNames = Object.keys(env).filter((n) => n.startsWith(TOKEN_ENV_PREFIX));
  const keep = new Set<string>();

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
    if (!parts) {
      plan.agents.push({ agentId, upstream: null, model: null, reason: input.enabled ? 'no-upstream' : 'disabled' });
      continue;
    }
    const upstreamId = routedNow && !viaDefault ? (Object.hasOwn(registry.agents, agentId) ? (registry.agents[agentId]?.upstream ?? null) : null) : parts.provider;
    if (!input.enabled) {
      plan.agents.push({ agentId, upstream: upstreamId, model: parts.model, reason: 'disabled' });
      if (routedNow && viaDefault) ops.remove(set.inEntry === 'object' ? ['agents', 'entries', agentId, 'model', 'primary'] : ['agents', 'entries', agentId, 'model']);
      else if (routedNow && upstreamId !== null) setModelRef(ops, config, agentId, `${upstreamId}/${parts.model}`);
      continue;
    }
    if (upstreamId === null) {
      plan.agents.push({ agentId, upstream: null, model: parts.model, reason: 'no-upstream' });
      continue;
    }
    const lookup = lookupUpstream(input, upstreamId);
    if (!lookup.ok) {
      plan.agents.push({ agentId, upstream: upstreamId, model: parts.model, reason: lookup.reason });
      continue;
    }
    const { found } = lookup;
    plan.agents.push({ agentId, upstream: upstreamId, model: parts.model, reason: null });
    if (viaDefault) plan.fromDefault.push(agentId);
    plan.registry.upstreams[upstreamId] = found.entry;
    plan.registry.agents[agentId] = { upstream: upstreamId, models: [parts.model] };
    const { keyName } = found.entry;
    const origin = originOf(found.entry.baseUrl);
    if (keyName !== null && found.keyValue !== null && origin !== null) {
      const stored = input.vaultGet(keyName);
      const bound = Object.hasOwn(keyHosts, keyName) ? (keyHosts[keyName] as string[]) : [];
      if (found.keySource === 'files' && stored !== found.keyValue) {
        // A key new to svc binds to where the gateway's own files send it now; the old value's hosts go with it.
        keyHosts = reboundNow.has(keyName) ? withHost(keyHosts, keyName, origin) : { ...keyHosts, [keyName]: [origin] };
        reboundNow.add(keyName);
      } else if (bound.length === 0 && (found.keySource === 'files' || found.builtIn)) {
        // Never bound: to the gateway's files' URL, or to a built-in provider's endpoint (svc's table, not a file).
        keyHosts = withHost(keyHosts, keyName, origin);
      }
      // Otherwise the binding stands: a base URL moved to another origin waits for the operator (hostConfirmed).
    }
    if (keyName !== null && found.keyValue !== null && input.vaultGet(keyName) !== found.keyValue) plan.vaultSet[keyName] = found.keyValue;
    for (const name of found.envNames) envAfter.add(name);
    if (found.apiKeyInConfig) ops.remove(['models', 'providers', upstreamId, 'apiKey']);

    const provider = svcProviderId(agentId);
    const tokenState = tokenStateOf(tokenStates, agentId);
    const tokenVar = tokenEnvVar(agentId, tokenState.generation);
    plan.tokenVars[agentId] = tokenVar;
    keep.add(provider);
    keep.add(tokenVar);
    ops.merge(['models', 'providers', provider], {
      baseUrl: svcBaseUrl(input.svcPort, agentId),
      apiKey: `\${${tokenVar}}`,
      api: found.entry.api,
      models: [modelEntryFor(found.models, parts.model)],
    });
    setModelRef(ops, config, agentId, `${provider}/${parts.model}`);
    // The gateway reads .env into its environment once per variable: a new
    // value for a name it has seen is ignored until it restarts. So an
    // agent's token is minted once, kept in the vault, and written again
    // with the same value whenever routing comes back.
    const inEnv = Object.hasOwn(env, tokenVar) ? env[tokenVar] : undefined;
    const kept = input.vaultGet(tokenVar);
    // Revoked by the operator: nothing is minted (the agent's calls are refused) until a rotation. The
    // variable stays defined (a dead value) so that the provider entry's reference resolves.
    if (tokenState.revoked) {
      if (inEnv === undefined) plan.envBefore[tokenVar] = REVOKED_TOKEN_VALUE;
      continue;
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

  plan.registry.keyHosts = keyHosts;
  if (!input.enabled) {
    // Keys go back where the gateway reads them: the .env name the registry recorded, and `${NAME}` in a custom entry.
    // Not to an upstream whose base URL moved off the key's hosts: the gateway would send it there itself.
    for (const [id, upstream] of Object.entries(registry.upstreams)) {
      if (upstream.keyName === null || !hostConfirmed(keyHosts, upstream)) continue;
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
    envAfter.add(name);
    // Routing off keeps the tokens (routing on again gives the gateway the same values); an agent gone loses its token.
    if (input.enabled && env[name]) {
      plan.revoke.push(env[name] as string);
      plan.vaultDelete.push(name);
    }
  }
  plan.envAfter = [...envAfter];
  return plan;
}
