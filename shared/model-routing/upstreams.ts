// Where the built-in providers of shared/gateway/providers.ts really live,
// for routing (issue 22): when an agent's model names a provider the gateway
// knows by itself (no `models.providers.<p>` entry), svc must know the
// provider's base URL and API to stand in front of it. Only providers with
// an API key svc's endpoint speaks are listed; a provider missing here is not
// routed (reason `no-upstream`). OAuth providers are never routed: svc cannot
// hold a subscription login on the gateway's behalf.
import { PROVIDERS } from '../gateway/providers.ts';
import type { RoutedApi } from './registry.ts';

export interface BuiltInUpstream {
  api: RoutedApi;
  baseUrl: string;
}

/** Provider id (OpenClaw's) → its public API endpoint, as a custom provider entry would spell it. */
export const BUILT_IN_UPSTREAMS: Readonly<Record<string, BuiltInUpstream>> = Object.freeze({
  openai: { api: 'openai-completions', baseUrl: 'https://api.openai.com/v1' },
  anthropic: { api: 'anthropic-messages', baseUrl: 'https://api.anthropic.com' },
  openrouter: { api: 'openai-completions', baseUrl: 'https://openrouter.ai/api/v1' },
  groq: { api: 'openai-completions', baseUrl: 'https://api.groq.com/openai/v1' },
  mistral: { api: 'openai-completions', baseUrl: 'https://api.mistral.ai/v1' },
  xai: { api: 'openai-completions', baseUrl: 'https://api.x.ai/v1' },
  deepseek: { api: 'openai-completions', baseUrl: 'https://api.deepseek.com/v1' },
  together: { api: 'openai-completions', baseUrl: 'https://api.together.xyz/v1' },
  fireworks: { api: 'openai-completions', baseUrl: 'https://api.fireworks.ai/inference/v1' },
  cerebras: { api: 'openai-completions', baseUrl: 'https://api.cerebras.ai/v1' },
  moonshot: { api: 'openai-completions', baseUrl: 'https://api.moonshot.ai/v1' },
  // Google's OpenAI-compatible surface: the gateway's native Gemini API is not one svc speaks.
  google: { api: 'openai-completions', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai' },
  ollama: { api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1' },
});

/** Subscription logins (auth profiles of type oauth): never routed. */
export const OAUTH_PROVIDERS: ReadonlySet<string> = new Set(['openai-codex', 'github-copilot', 'google-gemini-cli', 'google-antigravity']);

export const builtInUpstream = (provider: string): BuiltInUpstream | null =>
  Object.hasOwn(BUILT_IN_UPSTREAMS, provider) ? (BUILT_IN_UPSTREAMS[provider] as BuiltInUpstream) : null;

/** The GET gateway-config `has<Provider>Key` flags that svc's vault makes true (keys routing moved there); only true ones. */
export function heldKeyFlags(vault: { get(name: string): string | null }): Record<string, true> {
  const out: Record<string, true> = {};
  for (const info of PROVIDERS) if ([info.envVar, ...info.altEnvVars].some((n) => vault.get(n) !== null)) out[info.flag] = true;
  return out;
}
