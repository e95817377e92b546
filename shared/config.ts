// The one place that reads the environment. Everything else receives the
// typed, frozen Config built here (workers get it through workerData), so a
// setting has exactly one name, one default and one parser.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { childMayInherit, type ChildKind } from './child-env-names.ts';
import { messageOf } from './errors.ts';

export type { ChildKind };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Expands a leading `~` to the user's home directory. */
export function expandTilde(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return join(homedir(), p.slice(2));
  return p;
}

/** A port is valid when it is an integer 1..65535 written in decimal. */
export function parsePort(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d{1,5}$/.test(raw.trim())) return null;
  const n = Number(raw.trim());
  return n >= 1 && n <= 65535 ? n : null;
}

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(blankToUndefined, z.string().optional());

/** A whole number in [min, max] written in decimal; anything else (unset, blank, out of range) is undefined: the default. */
const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined),
    z.number().int().min(min).max(max).optional().catch(undefined),
  );

/** Every variable svc reads (docs/configuration.md documents each; a test checks). */
export const EnvSchema = z.object({
  SVC_HOME: optionalString,
  SVC_API_PORT: optionalString,
  SVC_AWAIT_PORT: optionalString,
  HOST: optionalString,
  STUDIO_ACCESS_TOKEN: optionalString,
  SVC_ALLOW_INSECURE: optionalString,
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(LOG_LEVELS).catch('info'),
  ),
  NODE_ENV: optionalString,
  SVC_DB_PATH: optionalString,
  SVC_VERSION: optionalString,
  SVC_MCP_BIN_DIR: optionalString,
  SVC_UI_DIST: optionalString,
  SVC_APPROVAL_TTL_MS: wholeNumber(1),
  SVC_SECRETS_MASTER_KEY: optionalString,
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString,
  OTEL_EXPORTER_OTLP_HEADERS: optionalString,
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: optionalString,
  OPENCLAW_STATE_DIR: optionalString,
  GATEWAY_STATE_DIR: optionalString,
  CLAWDBOT_STATE_DIR: optionalString,
  SVC_SERVER_PATH: optionalString,
  SVC_GATEWAY_CLI: optionalString,
  SVC_GATEWAY_PACKAGE: optionalString,
  SVC_UPDATE_PACKAGE: optionalString,
  SVC_UPDATE_REGISTRY: optionalString,
  SVC_CATALOG_DIR: optionalString,
  SVC_SEARCH_URL: optionalString,
  SVC_SEARCH_API_KEY: optionalString,
  SVC_EMBEDDINGS_URL: optionalString,
  SVC_EMBEDDINGS_MODEL: optionalString,
  SVC_EMBEDDINGS_API_KEY: optionalString,
  SVC_MCP_MAX_SESSIONS: wholeNumber(1, 100_000),
  SVC_MCP_SESSION_IDLE_MS: wholeNumber(1000),
  SVC_CATALOG_INDEX_URL: optionalString,
  SVC_DEV_ORIGIN: optionalString,
  SVC_ALLOWED_HOSTS: optionalString,
  SVC_RATE_LIMIT: optionalString,
  SVC_MAX_STREAMS: wholeNumber(1, 100_000),
  SVC_MAX_PROXY_CONNECTIONS: wholeNumber(1, 10_000),
  SVC_SKILL_SCAN_TIMEOUT_MS: wholeNumber(1, 600_000),
  SVC_TAIL_INTERVAL_MS: wholeNumber(10, 60_000),
  SVC_TEAM_CHAT_TURN_BOUND: wholeNumber(1, 100),
  SVC_TEAM_CHAT_IDLE_MS: wholeNumber(1000),
  SVC_TEAM_CHAT_RUN_TIMEOUT_MS: wholeNumber(1000, 3_600_000),
  SVC_BUDGET_HARD_CAP_USD_CENTS: wholeNumber(1, 100_000_000),
  SVC_BUDGET_WARN_PCT: wholeNumber(1, 99),
  SVC_MODEL_BODY_LIMIT_BYTES: wholeNumber(1024, 1024 * 1024 * 1024),
  SVC_MODEL_MAX_INFLIGHT_PER_AGENT: wholeNumber(1, 10_000),
  SVC_MODEL_CALLS_PER_MINUTE_PER_AGENT: wholeNumber(1, 1_000_000),
  DISPLAY: optionalString,
  WAYLAND_DISPLAY: optionalString,
  CI: optionalString,
});

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** svc's own state directory (`SVC_HOME`, default `~/.svc`). */
  readonly svcHome: string;
  readonly dbPath: string;
  /** `SVC_API_PORT` when it is a valid port; null means "scan 18790-18809". */
  readonly apiPort: number | null;
  /** Set by `svc restart`: wait for the pinned port to free before binding. */
  readonly awaitPort: boolean;
  readonly host: string;
  /** The access-gate token from the environment (blank = unset). */
  readonly accessToken: string | null;
  readonly allowInsecure: boolean;
  readonly logLevel: LogLevel;
  readonly nodeEnv: string;
  readonly isDevelopment: boolean;
  readonly version: string;
  readonly mcpBinDir: string;
  /** The built dashboard the static plugin serves (default <package>/ui/dist). */
  readonly uiDist: string;
  readonly approvalTtlMs: number;
  readonly secretsMasterKey: string | null;
  readonly otlpEndpoint: string | null;
  readonly otlpTracesEndpoint: string | null;
  /** Headers for the OTLP exporter (`OTEL_EXPORTER_OTLP_TRACES_HEADERS`, else `OTEL_EXPORTER_OTLP_HEADERS`): often credentials. */
  readonly otlpHeaders: Readonly<Record<string, string>>;
  /** The OpenClaw gateway's state directory (config, .env, state db). */
  readonly gatewayStateDir: string;
  readonly serverPath: string | null;
  /** The gateway CLI to run (`SVC_GATEWAY_CLI`); null = `openclaw` found on PATH. */
  readonly gatewayCli: string | null;
  /** What install-gateway installs globally (`SVC_GATEWAY_PACKAGE`, default `openclaw@^2026.5`). */
  readonly gatewayPackage: string;
  /** svc's own npm package, for self-version and self-update (`SVC_UPDATE_PACKAGE`); null (no default): neither looks anything up. */
  readonly updatePackage: string | null;
  /** npm registry asked for svc's latest release; null when `SVC_UPDATE_REGISTRY=off`. */
  readonly updateRegistry: string | null;
  /** A local catalog folder (`SVC_CATALOG_DIR`, default `<svcHome>/catalog`): read first. */
  readonly catalogDir: string;
  /** The remote catalog index; null when `SVC_CATALOG_INDEX_URL=off`. */
  readonly catalogIndexUrl: string | null;
  /** The web_search provider: a SearXNG-style JSON search endpoint (`SVC_SEARCH_URL`); null hides web_search. */
  readonly searchUrl: string | null;
  /** Sent as a bearer token to the search provider (`SVC_SEARCH_API_KEY`): a secret. */
  readonly searchApiKey: string | null;
  /** An OpenAI-compatible embeddings endpoint for memory search (`SVC_EMBEDDINGS_URL`); null = full-text search only. */
  readonly embeddingsUrl: string | null;
  readonly embeddingsModel: string;
  /** Sent as a bearer token to the embeddings endpoint (`SVC_EMBEDDINGS_API_KEY`): a secret. */
  readonly embeddingsApiKey: string | null;
  /** Open MCP Streamable HTTP sessions allowed at once (`SVC_MCP_MAX_SESSIONS`). */
  readonly mcpMaxSessions: number;
  /** An MCP session unused this long is closed (`SVC_MCP_SESSION_IDLE_MS`). */
  readonly mcpSessionIdleMs: number;
  /** Development mode: the one origin allowed cross-origin access with credentials (`SVC_DEV_ORIGIN`). */
  readonly devOrigin: string;
  /**
   * Host names the rebinding guard accepts besides the loopback names, lowercased (`SVC_ALLOWED_HOSTS`,
   * comma-separated): a TLS reverse proxy on this machine forwards its own public name as Host.
   */
  readonly allowedHosts: readonly string[];
  /** The general router-wide rate limit: requests per minute per client address; null = off (`SVC_RATE_LIMIT`). */
  readonly rateLimitPerMinute: number | null;
  /** Service-shaped SSE streams open at once; one past it is refused with 503 (`SVC_MAX_STREAMS`). */
  readonly maxStreams: number;
  /** Proxied gateway WebSocket connections open at once; one past it is refused with 503 (`SVC_MAX_PROXY_CONNECTIONS`). */
  readonly maxProxyConnections: number;
  /** A skill injection scan running longer is stopped and the install refused with 422 (`SVC_SKILL_SCAN_TIMEOUT_MS`). */
  readonly skillScanTimeoutMs: number;
  /** Poll interval of the tail worker (spec: 750 ms). */
  readonly tailIntervalMs: number;
  /** Agent runs one user message may cause in a team chat before `turn_bound_hit` stops the chain (`SVC_TEAM_CHAT_TURN_BOUND`). */
  readonly teamChatTurnBound: number;
  /** A team's orchestrator with no run in flight this long is evicted (`SVC_TEAM_CHAT_IDLE_MS`; spec: 30 minutes). */
  readonly teamChatIdleMs: number;
  /** Bound on one agent run of a team chat, after which it is aborted and ends `error` (`SVC_TEAM_CHAT_RUN_TIMEOUT_MS`). */
  readonly teamChatRunTimeoutMs: number;
  /** A global spend cap in cents over every budget (`SVC_BUDGET_HARD_CAP_USD_CENTS`); null = none. */
  readonly budgetHardCapUsdCents: number | null;
  /** The first warning threshold of warn-mode budgets, percent (`SVC_BUDGET_WARN_PCT`; spec: 80). */
  readonly budgetWarnPct: number;
  /** The largest request body svc's model endpoint reads (`SVC_MODEL_BODY_LIMIT_BYTES`). */
  readonly modelBodyLimitBytes: number;
  /** Model calls one agent may have in flight at once through svc's endpoint (`SVC_MODEL_MAX_INFLIGHT_PER_AGENT`). */
  readonly modelMaxInflightPerAgent: number;
  /** Model calls one agent may start per minute through svc's endpoint (`SVC_MODEL_CALLS_PER_MINUTE_PER_AGENT`). */
  readonly modelCallsPerMinutePerAgent: number;
  /** Whether a browser can be opened (a display exists and this is not CI). */
  readonly canOpenBrowser: boolean;
  /** The package's root folder (where package.json lives). */
  readonly packageRoot: string;
}

export const DEFAULT_GATEWAY_PACKAGE = 'openclaw@^2026.5';
export const DEFAULT_UPDATE_REGISTRY = 'https://registry.npmjs.org';
export const DEFAULT_CATALOG_INDEX_URL = 'https://catalog.svc.dev/v1/index.json';
export const DEFAULT_EMBEDDINGS_MODEL = 'text-embedding-3-small';
export const DEFAULT_MCP_MAX_SESSIONS = 1000;
export const DEFAULT_MCP_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_APPROVAL_TTL_MS = 10 * 60_000;
export const DEFAULT_TAIL_INTERVAL_MS = 750;
export const DEFAULT_TEAM_CHAT_TURN_BOUND = 8;
export const DEFAULT_TEAM_CHAT_IDLE_MS = 30 * 60_000;
export const DEFAULT_TEAM_CHAT_RUN_TIMEOUT_MS = 300_000;
export const DEFAULT_BUDGET_WARN_PCT = 80;
/** A long conversation with images is large; the dashboard's API limit would refuse it. */
export const DEFAULT_MODEL_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
/** More than a lead fanning out to a large team needs at once; a runaway loop in many sessions meets it. */
export const DEFAULT_MODEL_MAX_INFLIGHT_PER_AGENT = 32;
/** Fifty calls a second, sustained, is far past any agent's turn rate; it bounds a caller hammering the endpoint. */
export const DEFAULT_MODEL_CALLS_PER_MINUTE_PER_AGENT = 3000;
/** The UI dev server's origin (Vite's default port). */
export const DEFAULT_DEV_ORIGIN = 'http://localhost:5173';
export const DEFAULT_MAX_STREAMS = 2000;
export const DEFAULT_MAX_PROXY_CONNECTIONS = 64;
export const DEFAULT_SKILL_SCAN_TIMEOUT_MS = 10_000;
/**
 * The general tier (spec "Limits": below the sensitive tier's 60 per minute
 * in strictness): far above what the dashboard, its streams and MCP clients
 * make, low enough that a runaway local loop is throttled.
 */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 20_000;

/** `SVC_RATE_LIMIT`: a positive whole number of requests per minute, or `off`; anything else is the default. */
export function parseRateLimit(raw: string | undefined): number | null {
  if (raw === undefined) return DEFAULT_RATE_LIMIT_PER_MINUTE;
  const v = raw.trim().toLowerCase();
  if (v === 'off') return null;
  return /^\d{1,9}$/.test(v) && Number(v) > 0 ? Number(v) : DEFAULT_RATE_LIMIT_PER_MINUTE;
}

/**
 * svc's own secrets that live in its environment. They never reach a child
 * process (childEnv) and a `${NAME}` template never resolves them: a
 * template is text a user (or a page that can write settings) chose, and
 * resolving it would hand the secret to whatever the template feeds.
 */
export const SVC_SECRET_ENV_NAMES: readonly string[] = Object.freeze([
  'STUDIO_ACCESS_TOKEN',
  'SVC_SECRETS_MASTER_KEY',
  'SVC_SEARCH_API_KEY',
  'SVC_EMBEDDINGS_API_KEY',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
]);

/** True when `name` is one of svc's own secret variables (case-insensitive, as Windows reads them). */
export function isSvcSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return SVC_SECRET_ENV_NAMES.includes(upper);
}

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

function packageVersion(root: string): string {
  try {
    const parsed = z.object({ version: z.string() }).safeParse(
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')),
    );
    return parsed.success ? parsed.data.version : '0.0.0';
  } catch (err) {
    // A missing or unreadable package.json only loses the version string.
    console.warn(`svc: could not read package version: ${messageOf(err)}`);
    return '0.0.0';
  }
}

const abs = (p: string) => resolve(expandTilde(p));

/**
 * OTLP headers as the OpenTelemetry spec writes them: `key=value` pairs
 * separated by commas, values percent-decoded. A malformed pair is skipped.
 */
export function parseOtlpHeaders(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all (a bare %): the value is used as written.
    }
    if (key !== '' && key !== '__proto__') out[key] = value;
  }
  return out;
}

/** Picks the gateway state dir: explicit variables first, then existing legacy homes. */
function gatewayStateDirFrom(env: z.infer<typeof EnvSchema>): string {
  const explicit = env.OPENCLAW_STATE_DIR ?? env.GATEWAY_STATE_DIR ?? env.CLAWDBOT_STATE_DIR;
  if (explicit) return abs(explicit);
  const candidates = ['.openclaw', '.clawdbot', '.moltbot'].map((d) => join(homedir(), d));
  return candidates.find((d) => existsSync(d)) ?? (candidates[0] as string);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = EnvSchema.parse(env);
  const packageRoot = findPackageRoot();
  const svcHome = abs(e.SVC_HOME ?? '~/.svc');
  const nodeEnv = e.NODE_ENV ?? 'production';
  const mcpBinDir = e.SVC_MCP_BIN_DIR ? abs(e.SVC_MCP_BIN_DIR) : join(packageRoot, 'dist', 'bin', 'mcp');
  const dbPath = e.SVC_DB_PATH ? abs(e.SVC_DB_PATH) : join(svcHome, 'svc.db');
  const truthy = (v: string | undefined) => v === '1' || v?.toLowerCase() === 'true';
  return Object.freeze({
    svcHome,
    dbPath,
    apiPort: parsePort(e.SVC_API_PORT),
    awaitPort: truthy(e.SVC_AWAIT_PORT),
    host: e.HOST?.trim() ?? '127.0.0.1',
    accessToken: e.STUDIO_ACCESS_TOKEN?.trim() ?? null,
    allowInsecure: e.SVC_ALLOW_INSECURE === '1',
    logLevel: e.LOG_LEVEL,
    nodeEnv,
    isDevelopment: nodeEnv === 'development',
    version: e.SVC_VERSION ?? packageVersion(packageRoot),
    mcpBinDir: isAbsolute(mcpBinDir) ? mcpBinDir : resolve(mcpBinDir),
    uiDist: e.SVC_UI_DIST ? abs(e.SVC_UI_DIST) : join(packageRoot, 'ui', 'dist'),
    approvalTtlMs: e.SVC_APPROVAL_TTL_MS ?? DEFAULT_APPROVAL_TTL_MS,
    secretsMasterKey: e.SVC_SECRETS_MASTER_KEY ?? null,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
    otlpTracesEndpoint: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? null,
    otlpHeaders: Object.freeze(parseOtlpHeaders(e.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? e.OTEL_EXPORTER_OTLP_HEADERS)),
    gatewayStateDir: gatewayStateDirFrom(e),
    serverPath: e.SVC_SERVER_PATH ? abs(e.SVC_SERVER_PATH) : null,
    gatewayCli: e.SVC_GATEWAY_CLI ? abs(e.SVC_GATEWAY_CLI) : null,
    gatewayPackage: e.SVC_GATEWAY_PACKAGE ?? DEFAULT_GATEWAY_PACKAGE,
    // No default: a public name this project does not publish could be anyone's package (issue 15 #19).
    updatePackage: e.SVC_UPDATE_PACKAGE?.trim() ?? null,
    updateRegistry: e.SVC_UPDATE_REGISTRY?.trim().toLowerCase() === 'off' ? null : (e.SVC_UPDATE_REGISTRY ?? DEFAULT_UPDATE_REGISTRY).replace(/\/+$/, ''),
    catalogDir: e.SVC_CATALOG_DIR ? abs(e.SVC_CATALOG_DIR) : join(svcHome, 'catalog'),
    catalogIndexUrl: e.SVC_CATALOG_INDEX_URL?.trim().toLowerCase() === 'off' ? null : (e.SVC_CATALOG_INDEX_URL ?? DEFAULT_CATALOG_INDEX_URL),
    searchUrl: e.SVC_SEARCH_URL ?? null,
    searchApiKey: e.SVC_SEARCH_API_KEY ?? null,
    embeddingsUrl: e.SVC_EMBEDDINGS_URL ?? null,
    embeddingsModel: e.SVC_EMBEDDINGS_MODEL ?? DEFAULT_EMBEDDINGS_MODEL,
    embeddingsApiKey: e.SVC_EMBEDDINGS_API_KEY ?? null,
    mcpMaxSessions: e.SVC_MCP_MAX_SESSIONS ?? DEFAULT_MCP_MAX_SESSIONS,
    mcpSessionIdleMs: e.SVC_MCP_SESSION_IDLE_MS ?? DEFAULT_MCP_SESSION_IDLE_MS,
    devOrigin: (e.SVC_DEV_ORIGIN ?? DEFAULT_DEV_ORIGIN).replace(/\/+$/, ''),
    allowedHosts: Object.freeze((e.SVC_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '')),
    rateLimitPerMinute: parseRateLimit(e.SVC_RATE_LIMIT),
    maxStreams: e.SVC_MAX_STREAMS ?? DEFAULT_MAX_STREAMS,
    maxProxyConnections: e.SVC_MAX_PROXY_CONNECTIONS ?? DEFAULT_MAX_PROXY_CONNECTIONS,
    skillScanTimeoutMs: e.SVC_SKILL_SCAN_TIMEOUT_MS ?? DEFAULT_SKILL_SCAN_TIMEOUT_MS,
    tailIntervalMs: e.SVC_TAIL_INTERVAL_MS ?? DEFAULT_TAIL_INTERVAL_MS,
    teamChatTurnBound: e.SVC_TEAM_CHAT_TURN_BOUND ?? DEFAULT_TEAM_CHAT_TURN_BOUND,
    teamChatIdleMs: e.SVC_TEAM_CHAT_IDLE_MS ?? DEFAULT_TEAM_CHAT_IDLE_MS,
    teamChatRunTimeoutMs: e.SVC_TEAM_CHAT_RUN_TIMEOUT_MS ?? DEFAULT_TEAM_CHAT_RUN_TIMEOUT_MS,
    budgetHardCapUsdCents: e.SVC_BUDGET_HARD_CAP_USD_CENTS ?? null,
    budgetWarnPct: e.SVC_BUDGET_WARN_PCT ?? DEFAULT_BUDGET_WARN_PCT,
    modelBodyLimitBytes: e.SVC_MODEL_BODY_LIMIT_BYTES ?? DEFAULT_MODEL_BODY_LIMIT_BYTES,
    modelMaxInflightPerAgent: e.SVC_MODEL_MAX_INFLIGHT_PER_AGENT ?? DEFAULT_MODEL_MAX_INFLIGHT_PER_AGENT,
    modelCallsPerMinutePerAgent: e.SVC_MODEL_CALLS_PER_MINUTE_PER_AGENT ?? DEFAULT_MODEL_CALLS_PER_MINUTE_PER_AGENT,
    canOpenBrowser: !truthy(e.CI) && (process.platform !== 'linux' || Boolean(e.DISPLAY ?? e.WAYLAND_DISPLAY)),
    packageRoot,
  });
}

/**
 * Reads one environment variable by name, for the features that resolve a
 * user-written `${NAME}` template (settings token, gateway config). Kept here
 * so that this file stays the only reader of `process.env`.
 */
export function lookupEnv(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** svc's own variables: its secrets and every `SVC_*` setting. No child but svc itself sees them. */
export function isSvcOwnEnvName(name: string): boolean {
  return isSvcSecretEnvName(name) || name.toUpperCase().startsWith('SVC_');
}

/**
 * The environment of a program svc runs, built from an allowlist (issue 15
 * #2, shared/child-env-names.ts): the system essentials every child needs,
 * plus what its `kind` needs (npm's settings, the gateway's own variables),
 * plus the caller's overrides (undefined removes). svc's secrets and other
 * `SVC_*` variables are never copied, and an override naming one is a bug.
 */
export function childEnvFrom(
  source: NodeJS.ProcessEnv,
  overrides: Record<string, string | undefined> = {},
  kind: ChildKind = 'system',
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(source)) {
    if (v !== undefined && !isSvcOwnEnvName(k) && childMayInherit(k, kind)) env[k] = v;
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (isSvcOwnEnvName(k)) throw new Error(`childEnv: ${k} is svc's own variable and never goes to a child`);
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** childEnvFrom over this process's environment. */
export function childEnv(overrides: Record<string, string | undefined> = {}, kind: ChildKind = 'system'): NodeJS.ProcessEnv {
  return childEnvFrom(process.env, overrides, kind);
}

/**
 * The one exception to childEnv: svc starting svc (the launcher starting the
 * server, self-update restarting through svc's launcher). That child is svc
 * itself, run for the same user, and it needs every setting svc reads: the
 * access token (or the restarted gate would be off), the vault key, the OTLP
 * and search settings, and the provider keys and `${NAME}` template values
 * it resolves from its environment (spec "State directory": runtime keys
 * resolve from the process environment first). Only those two call sites use
 * it, and only to run an svc entry point.
 */
export function svcSelfEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}
