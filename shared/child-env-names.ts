// Which of svc's environment variables a child process may see (issue 15
// #2). The environment of every program svc runs is built from these lists
// (shared/config.ts `childEnv`), never copied whole: svc's own secrets
// (access token, vault key, search and embeddings keys, OTLP headers) and
// every other `SVC_*` setting stay in svc. Names compare case-insensitively,
// as Windows reads them (so `http_proxy` matches `HTTP_PROXY`).
import { PROVIDERS } from './gateway/providers.ts';

/** What a child is, and so what it needs beyond the system essentials. */
export type ChildKind =
  /** Anything else svc runs (`node --version`, `ps`): the system essentials only. */
  | 'system'
  /** `npm install -g`, `npm prefix -g`: plus npm's own settings. */
  | 'npm'
  /** A gateway CLI run (`--version`, `devices list`, `devices approve`): plus the gateway's own variables. */
  | 'gateway-cli'
  /** The gateway process: plus the provider credentials it documents and the display its browser tool uses. */
  | 'gateway'
  /**
   * The gateway process while svc routes its model calls (issue 31 item 10):
   * as `gateway`, without the provider credentials. A key exported in svc's
   * environment would let the gateway (and any agent's exec) call the
   * provider around svc's endpoint and its caps; with routing on the
   * gateway's calls reach the provider through svc, which holds the keys.
   */
  | 'gateway-routed'
  /** The platform's opener (`xdg-open`, `open`) starting the user's browser: plus the desktop session. */
  | 'opener';

/** Every child: finding programs, the user's home and temp dirs, locale, proxies and certificates, Windows essentials. */
export const BASE_CHILD_ENV_NAMES: readonly string[] = Object.freeze([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TMP', 'TEMP',
  'LANG', 'LANGUAGE', 'TZ', 'TERM',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY',
  'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  // Windows: without these, cmd shims, npm and node itself misbehave.
  'SYSTEMROOT', 'SYSTEMDRIVE', 'WINDIR', 'COMSPEC', 'PATHEXT', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE',
  'HOMEDRIVE', 'HOMEPATH', 'USERNAME', 'USERDOMAIN', 'COMPUTERNAME', 'PROGRAMDATA', 'ALLUSERSPROFILE', 'PUBLIC',
  'PROGRAMFILES', 'PROGRAMFILES(X86)', 'PROGRAMW6432', 'COMMONPROGRAMFILES', 'COMMONPROGRAMFILES(X86)',
  'OS', 'PROCESSOR_ARCHITECTURE', 'NUMBER_OF_PROCESSORS',
]);

/** Every child: locale categories and the XDG base directories. */
export const BASE_CHILD_ENV_PREFIXES: readonly string[] = Object.freeze(['LC_', 'XDG_']);

/** npm's own settings (`npm_config_prefix`, `npm_config_registry`, ...): a global install must honour them. */
export const NPM_ENV_PREFIXES: readonly string[] = Object.freeze(['NPM_CONFIG_']);

/** The gateway's own variables (its state dir, token, port, toggles: OpenClaw reads only `OPENCLAW_*`). */
export const GATEWAY_ENV_PREFIXES: readonly string[] = Object.freeze(['OPENCLAW_']);

/** A desktop session, for the gateway's managed browser when it runs headed. */
export const GATEWAY_DISPLAY_ENV_NAMES: readonly string[] = Object.freeze(['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY']);

/** What xdg-open needs to reach the running desktop and the user's chosen browser. */
export const OPENER_ENV_NAMES: readonly string[] = Object.freeze([...GATEWAY_DISPLAY_ENV_NAMES, 'DBUS_SESSION_BUS_ADDRESS', 'BROWSER', 'DESKTOP_SESSION']);

/**
 * The provider credential and selection variables OpenClaw 2026.9 documents
 * (docs/help/environment.md, "Provider credentials"): the gateway reads them
 * from its process environment first, so a key the user exported before
 * starting svc still reaches the gateway. Only the gateway process gets them.
 */
export const GATEWAY_PROVIDER_ENV_NAMES: readonly string[] = Object.freeze([
  'AI_GATEWAY_API_KEY', 'ANTHROPIC_ADMIN_API_KEY', 'ANTHROPIC_ADMIN_KEY', 'ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN',
  'ARCEEAI_API_KEY', 'AZURE_OPENAI_API_KEY', 'AZURE_SPEECH_API_KEY', 'AZURE_SPEECH_KEY', 'AZURE_SPEECH_REGION',
  'BASETEN_API_KEY', 'BRAVE_API_KEY', 'BYTEPLUS_API_KEY', 'BYTEPLUS_SEED_SPEECH_API_KEY', 'CEREBRAS_API_KEY',
  'CHUTES_API_KEY', 'CHUTES_OAUTH_TOKEN', 'CLAWROUTER_API_KEY', 'CLOUDFLARE_AI_GATEWAY_API_KEY', 'CODEX_API_KEY',
  'COHERE_API_KEY', 'COMFY_API_KEY', 'COMFY_CLOUD_API_KEY', 'COPILOT_GITHUB_TOKEN', 'DASHSCOPE_API_KEY',
  'DEEPGRAM_API_KEY', 'DEEPINFRA_API_KEY', 'DEEPSEEK_API_KEY', 'ELEVENLABS_API_KEY', 'EXA_API_KEY', 'FAL_API_KEY',
  'FAL_KEY', 'FEATHERLESS_API_KEY', 'FIRECRAWL_API_KEY', 'FIREWORKS_API_KEY', 'FISH_API_KEY', 'FISH_AUDIO_API_KEY',
  'GCLOUD_PROJECT', 'GEMINI_API_KEY', 'GMI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_CLOUD_API_KEY', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_CLOUD_PROJECT', 'GRADIUM_API_KEY', 'GROQ_API_KEY',
  'HF_TOKEN', 'HUGGINGFACE_HUB_TOKEN', 'INWORLD_API_KEY', 'KILOCODE_API_KEY', 'KIMICODE_API_KEY', 'KIMI_API_KEY',
  'LITELLM_API_KEY', 'LLAMA_SERVER_API_KEY', 'LM_API_TOKEN', 'LONGCAT_API_KEY', 'MINIMAX_API_KEY',
  'MINIMAX_CODE_PLAN_KEY', 'MINIMAX_CODING_API_KEY', 'MINIMAX_OAUTH_TOKEN', 'MISTRAL_API_KEY', 'MODELSTUDIO_API_KEY',
  'MODEL_API_KEY', 'MOONSHOT_API_KEY', 'NOVITA_API_KEY', 'NVIDIA_API_KEY', 'OLLAMA_API_KEY', 'OPENAI_ADMIN_KEY',
  'OPENAI_API_KEY', 'OPENCODE_API_KEY', 'OPENCODE_ZEN_API_KEY', 'OPENROUTER_API_KEY', 'PARALLEL_API_KEY',
  'PERPLEXITY_API_KEY', 'PIXVERSE_API_KEY', 'QIANFAN_API_KEY', 'QWEN_API_KEY', 'QWEN_TOKEN_PLAN_API_KEY',
  'RUNWAYML_API_SECRET', 'RUNWAY_API_KEY', 'SENSEAUDIO_API_KEY', 'SGLANG_API_KEY', 'SPEECH_KEY', 'SPEECH_REGION',
  'STEPFUN_API_KEY', 'SYNTHETIC_API_KEY', 'TAVILY_API_KEY', 'TOGETHER_API_KEY', 'TOKENHUB_API_KEY',
  'TOKENPLAN_API_KEY', 'VENICE_API_KEY', 'VLLM_API_KEY', 'VOLCANO_ENGINE_API_KEY', 'VOLCENGINE_TTS_API_KEY',
  'VOLCENGINE_TTS_APPID', 'VOLCENGINE_TTS_TOKEN', 'VOYAGE_API_KEY', 'VYDRA_API_KEY', 'XAI_API_KEY', 'XIAOMI_API_KEY',
  'XIAOMI_TOKEN_PLAN_API_KEY', 'XI_API_KEY', 'ZAI_API_KEY', 'Z_AI_API_KEY',
]);

const upper = (names: readonly string[]) => new Set(names.map((n) => n.toUpperCase()));
const BASE = upper(BASE_CHILD_ENV_NAMES);
const GATEWAY_EXTRA = upper([...GATEWAY_DISPLAY_ENV_NAMES, ...GATEWAY_PROVIDER_ENV_NAMES]);
const OPENER = upper(OPENER_ENV_NAMES);
/**
 * The keys of the model providers svc knows (shared/gateway/providers.ts): the
 * ones routing stands in front of. Other credentials (a search tool's key, a
 * speech key, an OAuth token of a provider svc does not route) stay: the
 * gateway's tools and unrouted agents need them.
 */
const ROUTED_PROVIDER_KEYS = upper(PROVIDERS.flatMap((info) => [info.envVar, ...info.altEnvVars]));
const GATEWAY_ROUTED_EXTRA = new Set([...GATEWAY_EXTRA].filter((n) => !ROUTED_PROVIDER_KEYS.has(n)));

/** Whether a child of `kind` may inherit `name` from svc's environment (svc's own variables are refused by the caller). */
export function childMayInherit(name: string, kind: ChildKind): boolean {
  const n = name.toUpperCase();
  if (BASE.has(n) || BASE_CHILD_ENV_PREFIXES.some((p) => n.startsWith(p))) return true;
  switch (kind) {
    case 'system':
      return false;
    case 'npm':
      return NPM_ENV_PREFIXES.some((p) => n.startsWith(p));
    case 'gateway-cli':
      return GATEWAY_ENV_PREFIXES.some((p) => n.startsWith(p));
    case 'gateway':
      return GATEWAY_ENV_PREFIXES.some((p) => n.startsWith(p)) || GATEWAY_EXTRA.has(n);
    case 'gateway-routed':
      return GATEWAY_ENV_PREFIXES.some((p) => n.startsWith(p)) || GATEWAY_ROUTED_EXTRA.has(n);
    case 'opener':
      return OPENER.has(n);
  }
}
