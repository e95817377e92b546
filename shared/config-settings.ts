// Every setting svc reads from its environment, each declared once (see
// config-setting.ts for what an entry holds). The Config type is derived from this
// table (shared/config.ts), and so are EnvSchema, svc's secret names, the boot
// report's config and resolved blocks (shared/health/) and the table in
// docs/configuration.md (checked by test/unit/configuration-doc.test.ts;
// `node --import tsx test/unit/write-configuration-doc.ts` rewrites it).
// The order here is the docs' order. A blank value counts as unset.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { messageOf } from './errors.ts';
import { abs, optionalString, parseOtlpHeaders, parsePort, setting, truthy, whole } from './config-setting.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Tool approvals expire after this long unless `SVC_APPROVAL_TTL_MS` says otherwise. */
export const DEFAULT_APPROVAL_TTL_MS = 10 * 60_000;
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

/** `SVC_HOME` resolved; loadConfig needs it first, as the default folder of the paths below it. */
export const svcHomeFrom = (v: string | undefined): string => abs(v ?? '~/.svc');

/** A URL setting whose `off` turns the feature off (null), unset being the default. */
const urlOrOff = (v: string | undefined, fallback: string): string | null => (v?.trim().toLowerCase() === 'off' ? null : (v ?? fallback));

function packageVersion(root: string): string {
  try {
    const parsed = z.object({ version: z.string() }).safeParse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
    return parsed.success ? parsed.data.version : '0.0.0';
  } catch (err) {
    // A missing or unreadable package.json only loses the version string.
    console.warn(`svc: could not read package version: ${messageOf(err)}`);
    return '0.0.0';
  }
}

/** The gateway state dir: explicit variables first (first set wins), then existing legacy homes. */
function gatewayStateDirFrom(explicit: string | undefined): string {
  if (explicit) return abs(explicit);
  const candidates = ['.openclaw', '.clawdbot', '.moltbot'].map((d) => join(homedir(), d));
  return candidates.find((d) => existsSync(d)) ?? (candidates[0] as string);
}

/** Two variables, one row in the docs: the generic OTLP endpoint and the traces-only one. */
const OTLP_ENDPOINT_DOC = {
  default: 'unset',
  doc: 'OTLP collector; when set, spans are exported, `otelActive` is true and the `otelExporterReachable` health check runs ([observability.md](observability.md#sending-traces-to-an-opentelemetry-collector))',
};

const SERVER = {
  svcHome: setting({
    env: 'SVC_HOME', schema: optionalString, value: svcHomeFrom, report: 'resolved.svcHome',
    default: '`~/.svc`', doc: 'state directory (`~` expanded): `svc.db`, `settings.json`, `api-port.txt`, `secrets/`, `logs/` (see [State directory](#state-directory))',
  }),
  /** null means "scan 18790-18809". */
  apiPort: setting({
    env: 'SVC_API_PORT', schema: optionalString, value: parsePort,
    default: 'unset', doc: 'port to bind; only this port is tried. Unset or invalid: the first free port of 18790-18809',
  }),
  /** Set by `svc restart`: wait for the pinned port to free before binding. */
  awaitPort: setting({
    env: 'SVC_AWAIT_PORT', schema: optionalString, value: truthy,
    default: 'unset', doc: 'set by `svc restart`: wait up to 10 s for `SVC_API_PORT` to free, then fall back to scanning',
  }),
  host: setting({
    env: 'HOST', schema: optionalString, value: (v) => v?.trim() ?? '127.0.0.1',
    default: '`127.0.0.1`', doc: 'bind address (`HOSTNAME` is ignored). A non-loopback address needs `STUDIO_ACCESS_TOKEN` or `SVC_ALLOW_INSECURE=1`',
  }),
  /** The access-gate token from the environment (blank = unset). */
  accessToken: setting({
    env: 'STUDIO_ACCESS_TOKEN', schema: optionalString, value: (v) => v?.trim() ?? null, secret: true,
    default: 'unset', doc: 'turns the access gate on; `[A-Za-z0-9._~-]+` only, anything else disables the gate with a loud warning. When unset, `studioAccessToken` in `settings.json` is used',
  }),
  allowInsecure: setting({
    env: 'SVC_ALLOW_INSECURE', schema: optionalString, value: (v) => v === '1',
    default: 'unset', doc: '`1` allows a non-loopback bind without a token',
  }),
  /** Host names the rebinding guard accepts besides the loopback names, lowercased: a TLS reverse proxy on this machine forwards its own public name as Host. */
  allowedHosts: setting({
    env: 'SVC_ALLOWED_HOSTS', schema: optionalString,
    value: (v) => Object.freeze((v ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '')),
    default: 'unset', doc: 'comma-separated host names (case-insensitive) that the rebinding guard accepts besides the loopback names, on any port: a TLS reverse proxy on this machine forwards its own public name as `Host`, and its pages send `Origin: https://<that name>`. A `Host` or an `Origin` (`http`/`https`) naming an allowed host passes; every other name still gets `403`',
  }),
  /** The general router-wide rate limit: requests per minute per client address; null = off. */
  rateLimitPerMinute: setting({
    env: 'SVC_RATE_LIMIT', schema: optionalString, value: parseRateLimit,
    default: `\`${DEFAULT_RATE_LIMIT_PER_MINUTE}\``, doc: "the general router-wide rate limit (the spec's \"Limits\": the tier below the sensitive one's 60 a minute): requests per minute per client address, loopback clients included; past it `429 { error: 'rate limit exceeded: N requests per minute' }` with `Retry-After`. `off` turns it off; anything but a positive whole number is the default. Requests the rebinding guard refuses and WebSocket upgrades are not counted",
  }),
  logLevel: setting({
    env: 'LOG_LEVEL',
    schema: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(LOG_LEVELS).catch('info')),
    value: (v): LogLevel => v, report: 'config.logLevel',
    default: '`info`', doc: `${LOG_LEVELS.map((l) => `\`${l}\``).join(', ')} (case-insensitive; anything else is \`info\`); per-request log lines only at \`debug\`/\`trace\` (see [Logs](#logs))`,
  }),
  nodeEnv: setting({
    env: 'NODE_ENV', schema: optionalString, value: (v) => v ?? 'production',
    default: '`production`', doc: '`development` grants cross-origin access with credentials to `SVC_DEV_ORIGIN` (and the rebinding guard accepts it)',
  }),
  /** NODE_ENV is `development` (its row above says what that grants). */
  isDevelopment: setting({ env: 'NODE_ENV', schema: optionalString, value: (v) => v === 'development' }),
  /** Development mode: the one origin allowed cross-origin access with credentials. */
  devOrigin: setting({
    env: 'SVC_DEV_ORIGIN', schema: optionalString, value: (v) => (v ?? 'http://localhost:5173').replace(/\/+$/, ''),
    default: '`http://localhost:5173`', doc: "development mode's one trusted origin (the UI dev server)",
  }),
  dbPath: setting({
    env: 'SVC_DB_PATH', schema: optionalString, value: (v, ctx) => (v ? abs(v) : join(ctx.svcHome, 'svc.db')), report: 'resolved.dbPath',
    default: '`$SVC_HOME/svc.db`', doc: 'database file',
  }),
  version: setting({
    env: 'SVC_VERSION', schema: optionalString, value: (v, ctx) => v ?? packageVersion(ctx.packageRoot),
    default: 'package version', doc: 'version reported by the server (the launcher passes its own)',
  }),
  mcpBinDir: setting({
    env: 'SVC_MCP_BIN_DIR', schema: optionalString,
    value: (v, ctx) => {
      const dir = v ? abs(v) : join(ctx.packageRoot, 'dist', 'bin', 'mcp');
      return isAbsolute(dir) ? dir : resolve(dir);
    },
    default: '`<package>/dist/bin/mcp`', doc: 'folder of the MCP stdio entries named in attach snippets',
  }),
  /** The built dashboard the static plugin serves. */
  uiDist: setting({
    env: 'SVC_UI_DIST', schema: optionalString, value: (v, ctx) => (v ? abs(v) : join(ctx.packageRoot, 'ui', 'dist')),
    default: '`<package>/ui/dist`', doc: 'folder of the built dashboard the server serves (`node ui/build.mjs --outDir <dir>` builds one elsewhere)',
  }),
  approvalTtlMs: whole({ env: 'SVC_APPROVAL_TTL_MS', min: 1, fallback: DEFAULT_APPROVAL_TTL_MS, doc: 'tool-approval time-to-live' }),
  secretsMasterKey: setting({
    env: 'SVC_SECRETS_MASTER_KEY', schema: optionalString, value: (v) => v ?? null, secret: true,
    default: 'unset', doc: 'vault key override: 64 hex chars, base64 of 32 bytes, or 32 raw characters; anything else is refused',
  }),
  otlpEndpoint: setting({ env: 'OTEL_EXPORTER_OTLP_ENDPOINT', schema: optionalString, value: (v) => v ?? null, ...OTLP_ENDPOINT_DOC }),
  otlpTracesEndpoint: setting({ env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', schema: optionalString, value: (v) => v ?? null, ...OTLP_ENDPOINT_DOC }),
  /** Headers for the OTLP exporter: often credentials. */
  otlpHeaders: setting({
    env: ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'], schema: optionalString, secret: true,
    value: (v) => Object.freeze(parseOtlpHeaders(v.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? v.OTEL_EXPORTER_OTLP_HEADERS)),
    default: 'unset', doc: 'headers for the exporter (`k=v,k2=v2`); the traces variable wins',
  }),
};

const GATEWAY_AND_UPDATES = {
  /** The OpenClaw gateway's state directory (config, .env, state db). */
  gatewayStateDir: setting({
    env: ['OPENCLAW_STATE_DIR', 'GATEWAY_STATE_DIR', 'CLAWDBOT_STATE_DIR'], schema: optionalString, report: 'resolved.stateDir',
    value: (v) => gatewayStateDirFrom(v.OPENCLAW_STATE_DIR ?? v.GATEWAY_STATE_DIR ?? v.CLAWDBOT_STATE_DIR),
    default: 'first existing of `~/.openclaw`, `~/.clawdbot`, `~/.moltbot`; else `~/.openclaw`',
    doc: "the gateway's state directory (`openclaw.json`, `.env`, `state/openclaw.sqlite`), first variable set wins",
  }),
  serverPath: setting({
    env: 'SVC_SERVER_PATH', schema: optionalString, value: (v) => (v ? abs(v) : null),
    default: 'unset', doc: 'launcher: the server entry to start instead of discovering one',
  }),
  /** null = `openclaw` found on PATH. */
  gatewayCli: setting({
    env: 'SVC_GATEWAY_CLI', schema: optionalString, value: (v) => (v ? abs(v) : null),
    default: '`openclaw` on `PATH`', doc: 'the gateway CLI to detect, start and run `devices approve` with',
  }),
  gatewayPackage: setting({
    env: 'SVC_GATEWAY_PACKAGE', schema: optionalString, value: (v) => v ?? 'openclaw@^2026.5',
    default: '`openclaw@^2026.5`', doc: 'what `POST /api/system/install-gateway` installs globally (tests point it at a small local package)',
  }),
  // No default: a public name this project does not publish could be anyone's package (issue 15 #19).
  updatePackage: setting({
    env: 'SVC_UPDATE_PACKAGE', schema: optionalString, value: (v) => v?.trim() ?? null,
    default: 'unset', doc: "svc's own npm package, for `self-version` and `self-update`; no default (unset: neither looks anything up, and both say how to set it)",
  }),
  /** null when `off`. */
  updateRegistry: setting({
    env: 'SVC_UPDATE_REGISTRY', schema: optionalString, value: (v) => urlOrOff(v, 'https://registry.npmjs.org')?.replace(/\/+$/, '') ?? null,
    default: '`https://registry.npmjs.org`', doc: "registry asked for svc's latest release; `off` makes no network call (`latest: null`)",
  }),
  tailIntervalMs: whole({ env: 'SVC_TAIL_INTERVAL_MS', min: 10, max: 60_000, fallback: 750, doc: 'tail worker poll interval (tests and benchmarks)' }),
  teamChatTurnBound: whole({
    env: 'SVC_TEAM_CHAT_TURN_BOUND', min: 1, max: 100, fallback: 8,
    doc: 'agent runs one user message may cause in a team chat (hand-overs, delegations, results) before `turn_bound_hit` stops the chain',
  }),
  teamChatIdleMs: whole({ env: 'SVC_TEAM_CHAT_IDLE_MS', min: 1000, fallback: 30 * 60_000, doc: "a team's chat orchestrator with no run in flight this long is evicted" }),
  teamChatRunTimeoutMs: whole({
    env: 'SVC_TEAM_CHAT_RUN_TIMEOUT_MS', min: 1000, max: 3_600_000, fallback: 300_000, doc: 'one agent run of a team chat running longer is aborted and ends `error`',
  }),
  teamChatReconnectWaitMs: whole({
    env: 'SVC_TEAM_CHAT_RECONNECT_WAIT_MS', min: 1, max: 600_000, fallback: 10_000,
    doc: 'a team-chat send that finds the gateway down waits this long for the connection before its one retry; then the run ends `error` with a note',
  }),
};

const RESOURCES_AND_LIMITS = {
  catalogDir: setting({
    env: 'SVC_CATALOG_DIR', schema: optionalString, value: (v, ctx) => (v ? abs(v) : join(ctx.svcHome, 'catalog')),
    default: '`$SVC_HOME/catalog`', doc: 'a local catalog folder (an `index.json` and its bundles), merged after the built-in pack',
  }),
  /** null when `off`. */
  catalogIndexUrl: setting({
    env: 'SVC_CATALOG_INDEX_URL', schema: optionalString, value: (v) => urlOrOff(v, 'https://catalog.svc.dev/v1/index.json'),
    default: '`https://catalog.svc.dev/v1/index.json`', doc: 'the remote catalog index, merged last; `off` makes no network call',
  }),
  /** The web_search tool's provider; null hides web_search. */
  searchUrl: setting({
    env: 'SVC_SEARCH_URL', schema: optionalString, value: (v) => v ?? null,
    default: 'unset', doc: "the `web_search` tool's provider (a SearXNG-style JSON endpoint); unset hides `web_search`",
  }),
  searchApiKey: setting({
    env: 'SVC_SEARCH_API_KEY', schema: optionalString, value: (v) => v ?? null, secret: true,
    default: 'unset', doc: 'sent to the search provider as a bearer token (a secret: redacted everywhere)',
  }),
  /** null = full-text search only. */
  embeddingsUrl: setting({
    env: 'SVC_EMBEDDINGS_URL', schema: optionalString, value: (v) => v ?? null,
    default: 'unset', doc: 'an OpenAI-compatible embeddings endpoint for memory search; unset = full-text search only',
  }),
  embeddingsModel: setting({
    env: 'SVC_EMBEDDINGS_MODEL', schema: optionalString, value: (v) => v ?? 'text-embedding-3-small',
    default: '`text-embedding-3-small`', doc: 'the embeddings model',
  }),
  embeddingsApiKey: setting({
    env: 'SVC_EMBEDDINGS_API_KEY', schema: optionalString, value: (v) => v ?? null, secret: true,
    default: 'unset', doc: 'sent to the embeddings endpoint as a bearer token (a secret: redacted everywhere)',
  }),
  mcpMaxSessions: whole({ env: 'SVC_MCP_MAX_SESSIONS', min: 1, max: 100_000, fallback: 1000, doc: 'open MCP Streamable HTTP sessions allowed at once' }),
  mcpSessionIdleMs: whole({ env: 'SVC_MCP_SESSION_IDLE_MS', min: 1000, fallback: 30 * 60_000, doc: 'an MCP session unused this long is closed' }),
  maxStreams: whole({ env: 'SVC_MAX_STREAMS', min: 1, max: 100_000, fallback: 2000, doc: 'service-shaped SSE streams open at once; one more is `503`' }),
  maxProxyConnections: whole({
    env: 'SVC_MAX_PROXY_CONNECTIONS', min: 1, max: 10_000, fallback: 64, doc: 'proxied gateway WebSocket connections open at once; one more is `HTTP/1.1 503`',
  }),
  skillScanTimeoutMs: whole({
    env: 'SVC_SKILL_SCAN_TIMEOUT_MS', min: 1, max: 600_000, fallback: 10_000, doc: 'a skill install scan running longer is stopped and the install refused with 422',
  }),
  /** A global spend cap in cents over every budget; null = none. */
  budgetHardCapUsdCents: whole({
    env: 'SVC_BUDGET_HARD_CAP_USD_CENTS', min: 1, max: 100_000_000, fallback: null, report: 'config.budgetHardCapUsdCents',
    doc: 'a global spend cap in cents: at boot svc creates a global cap budget with this limit when there is none, and it is the most the global budget for every model allows ([budgets.md](budgets.md))',
  }),
  budgetWarnPct: whole({
    env: 'SVC_BUDGET_WARN_PCT', min: 1, max: 99, fallback: 80, report: 'config.budgetWarnSoftPct',
    doc: 'the first warning threshold of `warn` budgets, in percent (the second is 100)',
  }),
  // A long conversation with images is large; the dashboard's API limit would refuse it.
  modelBodyLimitBytes: whole({
    env: 'SVC_MODEL_BODY_LIMIT_BYTES', min: 1024, max: 1024 * 1024 * 1024, fallback: 16 * 1024 * 1024,
    doc: "the largest request body svc's model endpoint reads; a larger one is `413` ([model-routing.md](model-routing.md))",
  }),
  // More than a lead fanning out to a large team needs at once; a runaway loop in many sessions meets it.
  modelMaxInflightPerAgent: whole({
    env: 'SVC_MODEL_MAX_INFLIGHT_PER_AGENT', min: 1, max: 10_000, fallback: 32,
    doc: "model calls one agent may have in flight at once through svc's endpoint; one more is a `429` with `retry-after` ([model-routing.md](model-routing.md))",
  }),
  // Fifty calls a second, sustained, is far past any agent's turn rate; it bounds a caller hammering the endpoint.
  modelCallsPerMinutePerAgent: whole({
    env: 'SVC_MODEL_CALLS_PER_MINUTE_PER_AGENT', min: 1, max: 1_000_000, fallback: 3000,
    doc: 'model calls one agent may start in any sliding minute; one more is a `429` with `retry-after`',
  }),
  /** Whether a browser can be opened (a display exists and this is not CI). */
  canOpenBrowser: setting({
    env: ['CI', 'DISPLAY', 'WAYLAND_DISPLAY'], schema: optionalString,
    value: (v) => !truthy(v.CI) && (process.platform !== 'linux' || Boolean(v.DISPLAY ?? v.WAYLAND_DISPLAY)),
    default: '', doc: 'the launcher opens no browser under `CI` or, on Linux, without a display',
  }),
  /** The package's root folder (where package.json lives); read from no variable. */
  packageRoot: setting({ env: [], schema: optionalString, value: (_v, ctx) => ctx.packageRoot }),
};

/** The table, in the docs' order (split in three only to keep each literal readable). */
export const SETTINGS = { ...SERVER, ...GATEWAY_AND_UPDATES, ...RESOURCES_AND_LIMITS };
export type Settings = typeof SETTINGS;
