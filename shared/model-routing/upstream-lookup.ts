// Where an agent's model provider really is, for routing (issue 22): a
// custom `models.providers.<p>` entry of openclaw.json (its API, base URL,
// static headers and key, a literal or a `${VAR}` from the gateway .env), a
// built-in provider svc knows the endpoint of (upstreams.ts), or one svc
// cannot stand in front of (an OAuth login, an API svc does not speak, no
// key anywhere). A key svc already moved is found in its vault by the name
// the registry recorded. A key or header naming a variable svc owns (a model
// token, an MCP binding: svc-names.ts) is refused (`svc-secret`): svc would
// send its own credential to the provider. Pure: plan.ts decides what to change.
import { apiKeysEnvVar, findProvider } from '../gateway/providers.ts';
import { getPath, isJsonObject, type JsonObject } from '../gateway/config-file.ts';
import { ROUTED_APIS, type RoutedApi, type RoutingRegistry, type Upstream } from './registry.ts';
import { isSvcOwnedKeyName } from './svc-names.ts';
import { builtInUpstream, OAUTH_PROVIDERS } from './upstreams.ts';

/** `svc-secret`: the provider entry names one of svc's own variables as its key or in a header (never resolved). */
export type NotRoutedReason = 'oauth' | 'no-upstream' | 'disabled' | 'svc-secret';

export const ENV_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** What the lookup reads (a plan's input has it all). */
export interface UpstreamInput {
  config: JsonObject;
  env: Readonly<Record<string, string>>;
  registry: RoutingRegistry;
  vaultGet: (name: string) => string | null;
  oauthProviders: ReadonlySet<string>;
}

export const own = (obj: unknown, key: string): unknown => (isJsonObject(obj) && Object.hasOwn(obj, key) ? obj[key] : undefined);

/** An upstream as this plan found it: the registry entry plus where its key is and which names hold it in the gateway's files. */
interface FoundUpstream {
  entry: Upstream;
  keyValue: string | null;
  /** .env names holding the key (removed when routed). */
  envNames: string[];
  /** The custom entry holds the key in its apiKey field (removed when routed). */
  apiKeyInConfig: boolean;
  /** The model list entry to copy into the svc provider. */
  models: unknown[];
  /** Where the key was read: the gateway's files (.env, a literal apiKey), svc's vault only, or nowhere (keyless). */
  keySource: 'files' | 'vault' | null;
  /** A built-in provider: its base URL is svc's own table's, not one the gateway's files name. */
  builtIn: boolean;
}

export type Lookup = { ok: true; found: FoundUpstream } | { ok: false; reason: NotRoutedReason };

export function lookupUpstream(input: UpstreamInput, provider: string): Lookup {
  const { config, env, registry, vaultGet } = input;
  const fromEnv = (name: string) => (Object.hasOwn(env, name) && env[name] !== '' ? (env[name] as string) : null);
  const previous = Object.hasOwn(registry.upstreams, provider) ? registry.upstreams[provider] : undefined;
  if (OAUTH_PROVIDERS.has(provider)) return { ok: false, reason: 'oauth' };
  const custom = own(getPath(config, ['models', 'providers']), provider);
  if (isJsonObject(custom)) {
    const api = custom.api;
    const baseUrl = custom.baseUrl;
    if (typeof api !== 'string' || !(ROUTED_APIS as readonly string[]).includes(api) || typeof baseUrl !== 'string') return { ok: false, reason: 'no-upstream' };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(isJsonObject(custom.headers) ? custom.headers : {})) {
      if (typeof v !== 'string') continue;
      const ref = ENV_REF.exec(v)?.[1];
      if (ref && isSvcOwnedKeyName(ref)) return { ok: false, reason: 'svc-secret' };
      headers[k] = ref ? (fromEnv(ref) ?? '') : v;
    }
    const models = Array.isArray(custom.models) ? custom.models : [];
    const apiKey = custom.apiKey;
    let keyName: string | null;
    let keyValue: string | null;
    let envNames: string[] = [];
    let keySource: FoundUpstream['keySource'];
    if (typeof apiKey === 'string' && apiKey !== '') {
      const ref = ENV_REF.exec(apiKey)?.[1];
      if (ref && isSvcOwnedKeyName(ref)) return { ok: false, reason: 'svc-secret' };
      keyName = ref ?? apiKeysEnvVar(provider);
      keyValue = ref ? (fromEnv(ref) ?? vaultGet(ref)) : apiKey;
      if (ref && fromEnv(ref) !== null) envNames = [ref];
      if (keyValue === null) return { ok: false, reason: 'no-upstream' };
      keySource = ref && fromEnv(ref) === null ? 'vault' : 'files';
    } else {
      // No key in the entry: svc took it earlier (the registry names it), or the upstream needs none.
      keyName = previous?.keyName ?? null;
      if (keyName !== null && isSvcOwnedKeyName(keyName)) return { ok: false, reason: 'svc-secret' };
      keyValue = keyName === null ? null : (fromEnv(keyName) ?? vaultGet(keyName));
      keySource = keyName === null ? null : fromEnv(keyName) !== null ? 'files' : 'vault';
      if (keyName !== null && fromEnv(keyName) !== null) envNames = [keyName];
      if (keyName !== null && keyValue === null) return { ok: false, reason: 'no-upstream' };
    }
    return {
      ok: true,
      found: { entry: { api: api as RoutedApi, baseUrl, keyName, headers }, keyValue, envNames, apiKeyInConfig: typeof apiKey === 'string' && apiKey !== '', models, keySource, builtIn: false },
    };
  }
  const builtIn = builtInUpstream(provider);
  const info = findProvider(provider);
  if (!builtIn || !info || info.id !== provider) return { ok: false, reason: input.oauthProviders.has(provider) ? 'oauth' : 'no-upstream' };
  const names = [info.envVar, ...info.altEnvVars];
  const envNames = names.filter((n) => fromEnv(n) !== null);
  const keyValue = envNames.length > 0 ? fromEnv(envNames[0] as string) : vaultGet(info.envVar);
  if (keyValue === null && !info.keyless) return { ok: false, reason: input.oauthProviders.has(provider) ? 'oauth' : 'no-upstream' };
  const keyName = keyValue === null ? null : info.envVar;
  const keySource = keyValue === null ? null : envNames.length > 0 ? 'files' : 'vault';
  return { ok: true, found: { entry: { api: builtIn.api, baseUrl: builtIn.baseUrl, keyName, headers: {} }, keyValue, envNames, apiKeyInConfig: false, models: [], keySource, builtIn: true } };
}

/**
 * The model entry the svc provider lists: the upstream's own (cost, context window...) or a plain
 * one. The plain one states no `cost` (OpenClaw's schema makes it optional): a cost of zeros would
 * tell the gateway the model is free, and the upstream's price is not svc's to invent.
 */
export function modelEntryFor(models: unknown[], modelId: string): unknown {
  const found = models.find((m) => own(m, 'id') === modelId);
  if (found !== undefined) return found;
  return { id: modelId, name: modelId, reasoning: false, input: ['text'], contextWindow: 128000, maxTokens: 8192 };
}
