// Read-modify-write of the gateway's `openclaw.json`. The file is the user's
// as much as svc's: unknown keys survive every edit, a corrupt file is copied
// aside before it is replaced (never overwritten with less than it held), the
// edit holds `openclaw.json.lock` (another writer's change is never lost), the
// write is atomic (0600: it may hold a literal token), and every config svc
// writes keeps the gateway on loopback. Keys taken from input (an agent id)
// are read and set as own properties only: `__proto__` is an ordinary key here.
//
// Bind policy: `gateway.bind` missing is set to "loopback" (OpenClaw's default
// "auto" listens on 0.0.0.0 in a container). Any other value a user wrote is
// taken as deliberate and left alone, with a warning in the log on each write.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { withFileLock } from '../file-lock.ts';
import { isAlreadyThere, writeFileAtomic, writeNewFile } from '../fs-safe.ts';
import { ownValue, setOwn } from '../object-keys.ts';
import { gatewayPaths } from '../paths.ts';
import { readGatewayConfig } from '../settings/gateway-files.ts';

export type JsonObject = Record<string, unknown>;
/** The two log levels the file logic uses (a pino logger fits). */
export interface ConfigLog {
  warn(fields: object, msg: string): void;
  info(fields: object, msg: string): void;
}

/**
 * A log that holds its lines until flush(). Lines about a config edit are
 * written after the edit: svc's log redactor resolves settings, which reads
 * this same file, and a line logged while it is still corrupt would set off
 * another "corrupt" warning from there, and so on.
 */
function deferredLog(log: ConfigLog): ConfigLog & { flush(): void } {
  const lines: Array<['warn' | 'info', object, string]> = [];
  return {
    warn: (fields, msg) => void lines.push(['warn', fields, msg]),
    info: (fields, msg) => void lines.push(['info', fields, msg]),
    flush: () => {
      for (const [level, fields, msg] of lines.splice(0)) log[level](fields, msg);
    },
  };
}

export const DEFAULT_GATEWAY_PORT = 18789;
/** What `gateway.auth.token` holds in every config svc writes: the value lives in `.env`. */
export const TOKEN_ENV_VAR = 'OPENCLAW_GATEWAY_TOKEN';
export const TOKEN_REF = '${OPENCLAW_GATEWAY_TOKEN}';

export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `parent[key]` as an object, created (or replacing a non-object, which the gateway could not use) when needed. */
export function child(parent: JsonObject, key: string): JsonObject {
  // Own properties only: an inherited `parent.__proto__` is Object.prototype itself.
  const existing = ownValue(parent, key);
  if (isJsonObject(existing)) return existing;
  const created: JsonObject = {};
  setOwn(parent, key, created);
  return created;
}

/** The value at a dotted path, or undefined. */
export function getPath(root: unknown, path: readonly string[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (!isJsonObject(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/**
 * Copies `file` to a new 0600 file `<file>.corrupt-<ms>`, created with
 * O_EXCL: a file or symlink already at that (predictable) name is never
 * written through; a random suffix is added instead. Returns the copy's path.
 */
function keepAside(file: string, now: number): string {
  const bytes = readFileSync(file);
  const aside = `${file}.corrupt-${now}`;
  try {
    writeNewFile(aside, bytes);
    return aside;
  } catch (err) {
    if (!isAlreadyThere(err)) throw err;
  }
  const other = `${aside}-${randomBytes(4).toString('hex')}`;
  writeNewFile(other, bytes);
  return other;
}

/** The current config for an edit: `{}` when missing; when corrupt, `{}` after a 0600 copy of the file is kept aside. */
export function loadConfigForEdit(stateDir: string, log: ConfigLog, now: () => number = Date.now): JsonObject {
  const read = readGatewayConfig(stateDir);
  if (read.config) return read.config;
  if (read.corrupt) {
    const file = gatewayPaths(stateDir).configFile;
    // If the copy fails the edit fails: replacing the only copy is the one thing not allowed.
    const aside = keepAside(file, now());
    log.warn({ file, keptAs: aside }, 'gateway config is not valid JSON; a copy was kept aside and svc starts from an empty config');
  }
  return {};
}

/** Sets `gateway.bind` to loopback when missing; warns about (and keeps) any other value. */
export function ensureLoopbackBind(config: JsonObject, log: ConfigLog): void {
  const gateway = child(config, 'gateway');
  if (gateway.bind === undefined) {
    gateway.bind = 'loopback';
    return;
  }
  if (gateway.bind !== 'loopback') {
    log.warn({ bind: gateway.bind }, 'gateway.bind is not "loopback"; svc keeps a bind the user chose, but the gateway may accept connections from other hosts');
  }
}

/**
 * Reads the config, lets `edit` change it, makes sure of the loopback bind,
 * and writes it back atomically, all under `openclaw.json.lock`. Returns what
 * `edit` returned. Comments in a JSON5 file do not survive (the file is
 * written as plain JSON).
 */
export function editGatewayConfig<T>(stateDir: string, log: ConfigLog, edit: (config: JsonObject, log: ConfigLog) => T): T {
  const held = deferredLog(log);
  const file = gatewayPaths(stateDir).configFile;
  try {
    return withFileLock(file, () => {
      const config = loadConfigForEdit(stateDir, held);
      const result = edit(config, held);
      ensureLoopbackBind(config, held);
      writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`);
      return result;
    });
  } finally {
    held.flush();
  }
}

/** `gateway.port` when it is a usable port number, else the default. */
export function configuredPort(config: unknown): number {
  const port = getPath(config, ['gateway', 'port']);
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535 ? port : DEFAULT_GATEWAY_PORT;
}

export const gatewayUrlFor = (port: number): string => `ws://localhost:${port}`;

/** PATCH gateway-config's config-file fields, already validated (spec table). */
export interface ConfigPatch {
  model?: string;
  fallbacks?: string[];
  gatewayPort?: number;
  agentModel?: { agentId: string; model: string | null };
  exec?: { ask?: string; security?: string };
  agentToAgent?: { enabled: boolean };
}

/** `agents.defaults.model` as an object, keeping a string shorthand as its primary. */
function defaultModelObject(config: JsonObject): JsonObject {
  const defaults = child(child(config, 'agents'), 'defaults');
  if (typeof defaults.model === 'string') defaults.model = { primary: defaults.model };
  return child(defaults, 'model');
}

/**
 * The per-agent override lives in `agents.entries.<id>.model` (OpenClaw
 * 2026.9; the legacy `agents.list` array is only migrated in memory, so
 * editing it would change nothing the gateway uses). An entry carries no
 * `id` (its key is the id, and the schema rejects unknown fields); an entry
 * left empty, or holding only a stray `id`, is pruned.
 */
function setAgentModel(config: JsonObject, agentId: string, model: string | null, log: ConfigLog): void {
  const agents = child(config, 'agents');
  if (Array.isArray(agents.list)) {
    log.warn({ agentId }, 'gateway config still has the legacy agents.list; svc writes agents.entries, which the gateway reads (openclaw doctor --fix migrates the rest)');
  }
  if (model !== null && model !== '') {
    child(child(agents, 'entries'), agentId).model = model;
    return;
  }
  const entries = ownValue(agents, 'entries');
  const entry = isJsonObject(entries) ? ownValue(entries, agentId) : undefined;
  if (!isJsonObject(entries) || !isJsonObject(entry)) return;
  delete entry.model;
  if (Object.keys(entry).every((k) => k === 'id')) delete entries[agentId];
  if (Object.keys(entries).length === 0) delete agents.entries;
}

/** Applies a validated PATCH to `config` in place. */
export function applyConfigPatch(config: JsonObject, patch: ConfigPatch, log: ConfigLog): void {
  if (patch.model !== undefined) defaultModelObject(config).primary = patch.model;
  if (patch.fallbacks !== undefined) defaultModelObject(config).fallbacks = patch.fallbacks;
  if (patch.gatewayPort !== undefined) child(config, 'gateway').port = patch.gatewayPort;
  if (patch.agentModel !== undefined) setAgentModel(config, patch.agentModel.agentId, patch.agentModel.model, log);
  if (patch.exec !== undefined) {
    const exec = child(child(config, 'tools'), 'exec');
    if (patch.exec.ask !== undefined) exec.ask = patch.exec.ask;
    if (patch.exec.security !== undefined) exec.security = patch.exec.security;
  }
  if (patch.agentToAgent !== undefined) {
    const tools = child(config, 'tools');
    child(tools, 'agentToAgent').enabled = patch.agentToAgent.enabled;
    if (patch.agentToAgent.enabled) child(tools, 'sessions').visibility = 'all';
  }
}
