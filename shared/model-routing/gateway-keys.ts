// The names (never values) of real provider keys still in the gateway's
// files: what the `model-keys` health check and the routing view report.
import { getPath, isJsonObject } from '../gateway/config-file.ts';
import { isProviderKeyEnvName } from '../gateway/providers.ts';
import type { RoutingRegistry } from './registry.ts';
import { ENV_REF, own } from './upstream-lookup.ts';
import { SVC_PROVIDER_PREFIX, TOKEN_ENV_PREFIX } from './plan.ts';

/**
 * Names (never values) under which the gateway's files still hold a real
 * provider key: .env variables that name one (shared/gateway/providers.ts)
 * or that a routed upstream's key lives under, and literal `apiKey`s of
 * provider entries that are not svc's.
 */
export function keysInGatewayFiles(config: unknown, env: Readonly<Record<string, string>>, registry: Pick<RoutingRegistry, 'upstreams'>): string[] {
  const out: string[] = [];
  const upstreamKeys = new Set(Object.values(registry.upstreams).map((u) => u.keyName).filter((n): n is string => n !== null));
  for (const [name, value] of Object.entries(env)) {
    if (value === '' || name.startsWith(TOKEN_ENV_PREFIX)) continue;
    if (upstreamKeys.has(name) || isProviderKeyEnvName(name)) out.push(name);
  }
  const providers = getPath(config, ['models', 'providers']);
  if (isJsonObject(providers)) {
    for (const [id, entry] of Object.entries(providers)) {
      const key = own(entry, 'apiKey');
      if (id.startsWith(SVC_PROVIDER_PREFIX) || typeof key !== 'string' || key === '' || ENV_REF.test(key)) continue;
      out.push(`models.providers.${id}.apiKey`);
    }
  }
  return out.sort();
}

