// The file logic behind POST /api/system/configure-gateway and
// /api/system/auto-configure-gateway (spec "System (host and gateway)"), plus
// the read-only look at the credentials the gateway already holds.
//
// Keys go to the gateway's `.env` only, referenced as `${VAR}`: OpenClaw
// 2026.9 no longer reads `agents/<id>/agent/auth-profiles.json`, and its mere
// presence breaks that agent's runs, so svc never writes one.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import type { Vault } from '../vault/index.ts';
import { emptyRecord, ownValue, setOwn } from '../object-keys.ts';
import { gatewayPaths } from '../paths.ts';
import { readGatewayConfig, readGatewayEnv } from '../settings/gateway-files.ts';
import {
  child, configuredPort, editGatewayConfig, gatewayUrlFor, getPath, isJsonObject, TOKEN_ENV_VAR, TOKEN_REF,
  type ConfigLog, type JsonObject,
} from './config-file.ts';
import type { ConfigureGatewayBody } from './config-api.ts';
import { updateGatewayEnv } from './env-file.ts';
import { configureEnvVar, defaultModelFor, findProvider, PROVIDERS, providerOfModel } from './providers.ts';

/** The spec's name for the env-file token, still honoured when reusing one. */
const LEGACY_TOKEN_ENV_VAR = 'GATEWAY_AUTH_TOKEN';
/** The subscription OAuth provider id of rung 2; doctor renames it to `openai` in 2026.9, so both count. */
const CODEX_OAUTH_PROVIDERS = ['openai-codex', 'openai'];
/** How the user imports a codex CLI login into the gateway (OpenClaw 2026.9 docs, providers/openai). */
export const CODEX_LOGIN_COMMAND = 'openclaw models auth login --provider openai';

/** A fresh gateway auth token (256 bits, base64url). */
export function mintGatewayToken(): string {
  return randomBytes(32).toString('base64url');
}

// ---------------------------------------------------------------------------
// Credentials the gateway already holds (read only).

export interface AuthProfile { provider: string; type: string | null }

const ProfileEntry = z.object({ provider: z.string().optional().catch(undefined), type: z.string().optional().catch(undefined) }).passthrough();
const ProfileStore = z.object({ profiles: z.record(z.string(), z.unknown()) });

/** Profiles of a store document: `{ profiles: { "<provider>:<name>": { type, provider } } }`, or the old flat `{ "<provider>": {...} }`. */
function profilesOf(doc: unknown): AuthProfile[] {
  const store = ProfileStore.safeParse(doc);
  const entries = store.success ? store.data.profiles : isJsonObject(doc) ? doc : {};
  const out: AuthProfile[] = [];
  for (const [id, value] of Object.entries(entries)) {
    const entry = ProfileEntry.safeParse(value);
    if (!entry.success) continue;
    out.push({ provider: entry.data.provider ?? id.split(':')[0] ?? id, type: entry.data.type ?? null });
  }
  return out;
}

/** The `auth_profile_store` row of an agent's SQLite database, opened read-only. */
function readSqliteStore(file: string): unknown {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 1000 });
  try {
    const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'auth_profile_store'").get();
    if (!table) return null;
    const row = z.object({ store_json: z.string() }).safeParse(
      db.prepare("select store_json from auth_profile_store where store_key = 'primary'").get(),
    );
    return row.success ? JSON.parse(row.data.store_json) : null;
  } finally {
    db.close();
  }
}

/** Every auth profile under `<stateDir>/agents/<id>/agent/` (SQLite store, or a legacy auth-profiles.json). Never throws. */
export function readAuthProfiles(stateDir: string, log: ConfigLog): AuthProfile[] {
  const agentsDir = gatewayPaths(stateDir).agentsDir;
  let agentIds: string[];
  try {
    agentIds = readdirSync(agentsDir);
  } catch {
    // No agents folder yet (a gateway that never ran): no profiles.
    return [];
  }
  const out: AuthProfile[] = [];
  for (const agentId of agentIds) {
    const dir = join(agentsDir, agentId, 'agent');
    for (const [file, read] of [
      [join(dir, 'openclaw-agent.sqlite'), readSqliteStore],
      [join(dir, 'auth-profiles.json'), (f: string): unknown => JSON.parse(readFileSync(f, 'utf8'))],
    ] as const) {
      if (!existsSync(file)) continue;
      try {
        out.push(...profilesOf(read(file)));
      } catch (err) {
        // A locked or damaged store only hides its profiles; the caller falls to the next rung.
        log.warn({ file, code: (err as NodeJS.ErrnoException).code ?? 'unreadable' }, 'could not read a gateway auth-profile store; skipping it');
      }
    }
  }
  return out;
}

/** The codex CLI is logged in: `<home>/.codex/auth.json` holds tokens or an API key. */
export function codexCliLoggedIn(userHome: string): boolean {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(join(userHome, '.codex', 'auth.json'), 'utf8'));
  } catch {
    // Missing or unreadable: not logged in, which is rung 4's answer.
    return false;
  }
  const tokens = getPath(doc, ['tokens']);
  const apiKey = getPath(doc, ['OPENAI_API_KEY']);
  return (isJsonObject(tokens) && Object.values(tokens).some((v) => typeof v === 'string' && v !== '')) || (typeof apiKey === 'string' && apiKey !== '');
}

/** The GET gateway-config `env` flags: one per provider, plus hasGatewayToken. Values never leave. */
export function presenceFlags(stateDir: string, config: unknown, log: ConfigLog): Record<string, boolean> {
  const env = readGatewayEnv(stateDir);
  const has = (name: string) => Object.hasOwn(env, name) && env[name] !== '';
  const profileProviders = new Set(readAuthProfiles(stateDir, log).map((p) => p.provider));
  const flags = emptyRecord<boolean>();
  for (const info of PROVIDERS) {
    flags[info.flag] = [info.envVar, ...info.altEnvVars].some(has) || profileProviders.has(info.id);
  }
  const literal = getPath(config, ['gateway', 'auth', 'token']);
  flags.hasGatewayToken = has(TOKEN_ENV_VAR) || has(LEGACY_TOKEN_ENV_VAR) || (typeof literal === 'string' && literal !== '' && !literal.startsWith('${'));
  return flags;
}

// ---------------------------------------------------------------------------
// The two writers.

/** What the route saves into svc's settings; the token never goes further. */
export interface GatewayConnectionSettings { gatewayUrl: string; gatewayToken: string }

const GATEWAY_AUTH = { mode: 'token', token: TOKEN_REF } as const;
const TOKEN_REF_PATTERN = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** configure-gateway's input: the route's parsed body, its provider checked. */
export type ConfigureInput = Omit<z.output<typeof ConfigureGatewayBody>, 'provider'> & { provider: string };

/** configure-gateway: the explicit setup. Sets its fields, keeps every other key, mints a fresh token. */
export function configureGateway(stateDir: string, input: ConfigureInput, log: ConfigLog): GatewayConnectionSettings {
  const token = mintGatewayToken();
  const envChanges = emptyRecord<string>();
  envChanges[TOKEN_ENV_VAR] = token;
  if (input.apiKey !== null) envChanges[configureEnvVar(input.provider)] = input.apiKey;
  // The env file first: a config naming ${OPENCLAW_GATEWAY_TOKEN} with no value would lock svc out.
  updateGatewayEnv(stateDir, envChanges);
  editGatewayConfig(stateDir, log, (config) => {
    const gateway = child(config, 'gateway');
    gateway.mode = 'local';
    gateway.port = input.gatewayPort;
    Object.assign(child(gateway, 'auth'), GATEWAY_AUTH);
    const defaults = child(child(config, 'agents'), 'defaults');
    if (!isJsonObject(defaults.model)) defaults.model = {};
    child(defaults, 'model').primary = input.model ?? defaultModelFor(input.provider);
    const tools = child(config, 'tools');
    child(tools, 'agentToAgent').enabled = true;
    child(tools, 'sessions').visibility = 'all';
  });
  return { gatewayUrl: gatewayUrlFor(input.gatewayPort), gatewayToken: token };
}

/** Rungs 3 and 4: nothing written; the dashboard shows what the user can do. */
const AutoConfigureRefusal = [
  z.object({ ok: z.literal(false), needsCodexAuth: z.literal(true), loginCommand: z.string() }),
  z.object({ ok: z.literal(false), needsKey: z.literal(true) }),
] as const;

/** POST auto-configure-gateway's answer: rungs 1-2 as the route replies (the token stays in svc's settings), rungs 3-4 as returned. */
export const AutoConfigureResponse = z.union([
  z.object({ ok: z.literal(true), gatewayUrl: z.string(), provider: z.string() }),
  ...AutoConfigureRefusal,
]);
export type AutoConfigureResponse = z.infer<typeof AutoConfigureResponse>;

export type AutoConfigureResult =
  | { ok: true; provider: string; settings: GatewayConnectionSettings }
  | z.infer<(typeof AutoConfigureRefusal)[number]>;

/** What the route sends for a result: the connection settings (the token) never leave. */
export const autoConfigureReply = (result: AutoConfigureResult): AutoConfigureResponse =>
  result.ok ? { ok: true, gatewayUrl: result.settings.gatewayUrl, provider: result.provider } : result;

export interface AutoConfigureInput {
  stateDir: string;
  vault: Pick<Vault, 'get'>;
  /** The user's home folder, where the codex CLI keeps `.codex/auth.json`. */
  userHome: string;
  log: ConfigLog;
}

/** Rung 1: the first provider with a key in the vault or the gateway env file; the current default model's provider first. */
function findKey(input: AutoConfigureInput, currentModel: unknown): { provider: string; envVar: string; vaultValue: string | null } | null {
  const env = readGatewayEnv(input.stateDir);
  const preferred = findProvider(providerOfModel(currentModel) ?? '');
  const order = preferred ? [preferred, ...PROVIDERS.filter((p) => p !== preferred)] : PROVIDERS;
  for (const info of order) {
    if (info.keyless) continue; // a hosted-Ollama key does not make local Ollama the default
    for (const name of [info.envVar, ...info.altEnvVars]) {
      if (Object.hasOwn(env, name) && env[name] !== '') return { provider: info.id, envVar: name, vaultValue: null };
      const stored = input.vault.get(name);
      if (stored) return { provider: info.id, envVar: name, vaultValue: stored };
    }
  }
  return null;
}

/**
 * The token to keep: the one the config already points at (a `${NAME}` found
 * in the env file, or a literal), else OPENCLAW_GATEWAY_TOKEN or
 * GATEWAY_AUTH_TOKEN from the env file, else a fresh one. Returns the env
 * changes that make the config's reference resolve.
 */
function reuseOrMintToken(config: JsonObject, env: Record<string, string>): { token: string; envChanges: Record<string, string> } {
  const fromEnv = (name: string) => (Object.hasOwn(env, name) && env[name] !== '' ? env[name] : undefined);
  const current = getPath(config, ['gateway', 'auth', 'token']);
  if (typeof current === 'string' && current !== '') {
    const ref = TOKEN_REF_PATTERN.exec(current)?.[1];
    if (!ref) return { token: current, envChanges: {} };
    const value = fromEnv(ref);
    return value ? { token: value, envChanges: {} } : { token: mintGatewayToken(), envChanges: {} };
  }
  const token = fromEnv(TOKEN_ENV_VAR) ?? fromEnv(LEGACY_TOKEN_ENV_VAR) ?? mintGatewayToken();
  return { token, envChanges: fromEnv(TOKEN_ENV_VAR) === token ? {} : { [TOKEN_ENV_VAR]: token } };
}

/** Fills what a working local gateway needs, only where missing; `gateway.mode` alone is forced. */
function fillMissing(config: JsonObject, defaultModel: string): void {
  const gateway = child(config, 'gateway');
  gateway.mode = 'local';
  if (typeof gateway.port !== 'number') gateway.port = configuredPort(config);
  if (gateway.auth === undefined) gateway.auth = { ...GATEWAY_AUTH };
  const defaults = child(child(config, 'agents'), 'defaults');
  if (defaults.model === undefined) defaults.model = { primary: defaultModel };
  else if (isJsonObject(defaults.model) && defaults.model.primary === undefined) defaults.model.primary = defaultModel;
  const tools = child(config, 'tools');
  if (tools.agentToAgent === undefined) tools.agentToAgent = { enabled: true };
  if (tools.sessions === undefined) tools.sessions = { visibility: 'all' };
}

/** auto-configure-gateway: the four rungs of the spec, stopping at the first match. Rungs 3 and 4 write nothing. */
export function autoConfigureGateway(input: AutoConfigureInput): AutoConfigureResult {
  const { stateDir, log } = input;
  const current = readGatewayConfig(stateDir).config;
  const key = findKey(input, getPath(current, ['agents', 'defaults', 'model', 'primary']) ?? getPath(current, ['agents', 'defaults', 'model']));
  let provider: string;
  const keyEnv = emptyRecord<string>();
  if (key) {
    provider = key.provider;
    if (key.vaultValue !== null) keyEnv[key.envVar] = key.vaultValue;
  } else {
    const oauth = readAuthProfiles(stateDir, log).find((p) => p.type === 'oauth' && CODEX_OAUTH_PROVIDERS.includes(p.provider));
    if (!oauth) {
      if (codexCliLoggedIn(input.userHome)) return { ok: false, needsCodexAuth: true, loginCommand: CODEX_LOGIN_COMMAND };
      return { ok: false, needsKey: true };
    }
    provider = oauth.provider;
  }
  // A codex OAuth profile serves `openai/*` model refs in 2026.9.
  const defaultModel = defaultModelFor(key ? provider : 'openai');
  const env = readGatewayEnv(stateDir);
  const settings = editGatewayConfig(stateDir, log, (config) => {
    const { token, envChanges } = reuseOrMintToken(config, env);
    fillMissing(config, defaultModel);
    // Whatever ${NAME} the config now points at must resolve to the token
    // (NAME comes from the file, so it is set as an own key whatever it is).
    const ref = TOKEN_REF_PATTERN.exec(String(getPath(config, ['gateway', 'auth', 'token']) ?? ''))?.[1];
    if (ref !== undefined && ownValue(env, ref) !== token) setOwn(envChanges, ref, token);
    // The env file before the config: a config naming a variable with no value would lock svc out.
    updateGatewayEnv(stateDir, Object.assign(emptyRecord<string>(), keyEnv, envChanges));
    return { gatewayUrl: gatewayUrlFor(configuredPort(config)), gatewayToken: token };
  });
  return { ok: true, provider, settings };
}
