// The model providers svc knows by name (spec "System (host and gateway)":
// thirteen providers, one `has<Provider>Key` flag each). Ids, env var names
// and default models are OpenClaw 2026.9's own (its docs/providers/*.md), so
// a key svc writes to the gateway's .env is one the gateway reads unaided.

export interface ProviderInfo {
  /** OpenClaw's provider id: the `<id>/` prefix of a model ref. */
  readonly id: string;
  /** The env var OpenClaw reads the key from; svc writes keys under this name. */
  readonly envVar: string;
  /** Other env vars OpenClaw also accepts for this provider (read, never written). */
  readonly altEnvVars: readonly string[];
  /** The model ref configure-gateway uses when no model is given. */
  readonly defaultModel: string;
  /** The GET gateway-config `env` flag for this provider. */
  readonly flag: string;
  /** A local provider that works without a key. */
  readonly keyless: boolean;
}

const p = (id: string, envVar: string, defaultModel: string, flag: string, extra: Partial<ProviderInfo> = {}): ProviderInfo => ({
  id, envVar, defaultModel, flag, altEnvVars: [], keyless: false, ...extra,
});

export const PROVIDERS: readonly ProviderInfo[] = [
  p('anthropic', 'ANTHROPIC_API_KEY', 'anthropic/claude-opus-5', 'hasAnthropicKey'),
  p('openai', 'OPENAI_API_KEY', 'openai/gpt-5.5', 'hasOpenAIKey'),
  p('google', 'GEMINI_API_KEY', 'google/gemini-3.1-pro-preview', 'hasGoogleKey', { altEnvVars: ['GOOGLE_API_KEY'] }),
  p('openrouter', 'OPENROUTER_API_KEY', 'openrouter/auto', 'hasOpenRouterKey'),
  p('groq', 'GROQ_API_KEY', 'groq/openai/gpt-oss-120b', 'hasGroqKey'),
  p('mistral', 'MISTRAL_API_KEY', 'mistral/mistral-large-latest', 'hasMistralKey'),
  p('xai', 'XAI_API_KEY', 'xai/grok-4.7', 'hasXaiKey'),
  p('deepseek', 'DEEPSEEK_API_KEY', 'deepseek/deepseek-v4-pro', 'hasDeepSeekKey'),
  p('together', 'TOGETHER_API_KEY', 'together/moonshotai/Kimi-K2.6', 'hasTogetherKey'),
  p('fireworks', 'FIREWORKS_API_KEY', 'fireworks/accounts/fireworks/routers/glm-5p2-fast', 'hasFireworksKey'),
  p('cerebras', 'CEREBRAS_API_KEY', 'cerebras/gemma-4-31b', 'hasCerebrasKey'),
  p('moonshot', 'MOONSHOT_API_KEY', 'moonshot/kimi-k3', 'hasMoonshotKey'),
  // Local Ollama needs no key (OpenClaw uses its `ollama-local` marker for
  // loopback hosts); OLLAMA_API_KEY is only for a hosted Ollama.
  p('ollama', 'OLLAMA_API_KEY', 'ollama/gemma4', 'hasOllamaKey', { keyless: true }),
];

/** The keyless provider, as the spec's 400 message names it. */
export const KEYLESS_PROVIDER = 'ollama';

/** Names people type for a provider that OpenClaw spells differently. */
const ALIASES: Readonly<Record<string, string>> = { gemini: 'google', grok: 'xai', 'fireworks-ai': 'fireworks', kimi: 'moonshot' };

const BY_ID = new Map(PROVIDERS.map((info) => [info.id, info]));

/** The table entry for a provider id or alias (case-insensitive); undefined when unmapped. */
export function findProvider(provider: string): ProviderInfo | undefined {
  const key = provider.trim().toLowerCase();
  return BY_ID.get(Object.hasOwn(ALIASES, key) ? (ALIASES[key] as string) : key);
}

/** `<PROVIDER>_API_KEY` for an unmapped provider: upper-cased, anything but letters and digits becomes `_`. */
function derivedEnvVar(provider: string): string {
  const stem = provider.trim().toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return /^[A-Z_]/.test(stem) ? `${stem}_API_KEY` : `_${stem}_API_KEY`;
}

/** Where configure-gateway puts the key: the canonical name, or `CUSTOM_API_KEY` (spec). */
export function configureEnvVar(provider: string): string {
  return findProvider(provider)?.envVar ?? 'CUSTOM_API_KEY';
}

/** Where PATCH gateway-config `apiKeys` puts a key: the canonical name, or `<PROVIDER>_API_KEY` (spec). */
export function apiKeysEnvVar(provider: string): string {
  return findProvider(provider)?.envVar ?? derivedEnvVar(provider);
}

/** The default model ref: the table's, or `<provider>/default` for an unmapped provider (spec). */
export function defaultModelFor(provider: string): string {
  return findProvider(provider)?.defaultModel ?? `${provider.trim()}/default`;
}

/** The provider id a model ref names (`anthropic/claude-…` → `anthropic`), or null. */
export function providerOfModel(model: unknown): string | null {
  if (typeof model !== 'string') return null;
  const slash = model.indexOf('/');
  return slash > 0 ? model.slice(0, slash) : null;
}

/** Every variable a provider key is read from or written to: the table's names and CUSTOM_API_KEY. */
const PROVIDER_KEY_VARS: ReadonlySet<string> = new Set([...PROVIDERS.flatMap((info) => [info.envVar, ...info.altEnvVars]), 'CUSTOM_API_KEY']);

/**
 * Whether `name` (case-insensitive, as Windows reads variables) holds a
 * provider key: a known provider's variable, CUSTOM_API_KEY, or any
 * `<PROVIDER>_API_KEY` (the name PATCH gateway-config gives an unmapped
 * provider's key). A gateway token is never one of these.
 */
export function isProviderKeyEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return PROVIDER_KEY_VARS.has(upper) || upper.endsWith('_API_KEY');
}
