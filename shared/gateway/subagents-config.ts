// Who each gateway agent may hand work to with `sessions_spawn`: the list
// `agents.entries.<id>.subagents.allowAgents` in openclaw.json, which the
// gateway enforces (RECIPE §11: an unlisted target is answered `forbidden`).
// svc writes only that list, and only for agents that already have an entry:
// an entry IS a gateway agent, so writing one for an id the gateway lacks
// would create an agent. Other keys under `subagents` (delegationMode, ...)
// and everywhere else are kept. The gateway hot-reloads every write, so an
// edit that changes nothing is not written at all; a write copies the file
// to `openclaw.json.svc-bak` first (the gateway's own `.bak` is its to rotate).
import { readFileSync } from 'node:fs';
import { isMissingFile, writeFileAtomic } from '../fs-safe.ts';
import { ownValue } from '../object-keys.ts';
import { gatewayPaths } from '../paths.ts';
import { readGatewayConfig } from '../settings/gateway-files.ts';
import { child, editGatewayConfig, getPath, isJsonObject, type ConfigLog, type JsonObject } from './config-file.ts';

/** The file svc copies openclaw.json to before each of its allowAgents writes. */
export const backupFileOf = (stateDir: string): string => `${gatewayPaths(stateDir).configFile}.svc-bak`;

/** `agents.entries` when it is an object (the gateway's current schema), else null. */
function entriesOf(config: unknown): JsonObject | null {
  const entries = getPath(config, ['agents', 'entries']);
  return isJsonObject(entries) ? entries : null;
}

/** An entry's allowAgents as a list of ids; null when unset or not a list of strings. */
function allowAgentsOf(entry: unknown): string[] | null {
  const list = getPath(entry, ['subagents', 'allowAgents']);
  return Array.isArray(list) && list.every((v) => typeof v === 'string') ? [...(list as string[])] : null;
}

/** Every gateway agent id the config has an entry for, with its allowAgents (null when unset). */
export function readAllowAgents(config: unknown): Map<string, string[] | null> {
  const out = new Map<string, string[] | null>();
  const entries = entriesOf(config);
  if (!entries) return out;
  for (const id of Object.keys(entries)) out.set(id, allowAgentsOf(ownValue(entries, id)));
  return out;
}

const sameSet = (a: readonly string[] | null, b: readonly string[]): boolean =>
  a !== null && a.length === b.length && b.every((id) => a.includes(id));

/** The entries whose allowAgents differ from `want` (as sets); ids without an entry are left out. */
export function allowAgentsChanges(config: unknown, want: ReadonlyMap<string, readonly string[]>): Array<[string, string[]]> {
  const current = readAllowAgents(config);
  const out: Array<[string, string[]]> = [];
  for (const [id, list] of want) {
    if (!current.has(id)) continue;
    if (!sameSet(current.get(id) ?? null, list)) out.push([id, [...list]]);
  }
  return out;
}

export type SubagentsWrite =
  | { kind: 'no-config' }
  | { kind: 'corrupt' }
  | { kind: 'unchanged' }
  | { kind: 'written'; agents: string[] };

/** What a sync would change, read from the file without a lock (the gateway's own config.patch takes its lock). */
export function pendingAllowAgents(stateDir: string, want: ReadonlyMap<string, readonly string[]>): { kind: 'no-config' | 'corrupt' } | { kind: 'changes'; changes: Array<[string, string[]]> } {
  const read = readGatewayConfig(stateDir);
  if (read.corrupt) return { kind: 'corrupt' };
  if (!read.config) return { kind: 'no-config' };
  return { kind: 'changes', changes: allowAgentsChanges(read.config, want) };
}

/**
 * The changes as the gateway's `config.patch` takes them: one JSON merge
 * patch, and `replacePaths` naming each list, without which the gateway
 * refuses a patch that removes ids from a list ("would remove entries from
 * array path(s)").
 */
export function allowAgentsPatch(changes: ReadonlyArray<readonly [string, readonly string[]]>): { raw: string; replacePaths: string[] } {
  const entries: Record<string, unknown> = {};
  for (const [id, list] of changes) Object.defineProperty(entries, id, { value: { subagents: { allowAgents: [...list] } }, enumerable: true });
  return { raw: JSON.stringify({ agents: { entries } }), replacePaths: changes.map(([id]) => `agents.entries.${id}.subagents.allowAgents`) };
}

/** A request to the running gateway (svc's gateway link). */
export type GatewayCall = (method: string, params: unknown) => Promise<unknown>;

const CHANGED_SINCE_LOAD = /config changed since last load/;

/**
 * Applies the lists through the gateway's own `config.patch`, which takes
 * the hash of the config it patches (`config.get`): a list the patch
 * shortens is refused without it. A config changed between the two calls
 * is read again once.
 */
export async function patchThroughGateway(call: GatewayCall, patch: { raw: string; replacePaths: string[] }, note = 'svc: team rosters (subagents.allowAgents)'): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const snapshot = (await call('config.get', {})) as { hash?: unknown } | null;
    const baseHash = typeof snapshot?.hash === 'string' ? snapshot.hash : undefined;
    try {
      await call('config.patch', { ...patch, ...(baseHash ? { baseHash } : {}), note });
      return;
    } catch (err) {
      if (attempt > 0 || !(err instanceof Error) || !CHANGED_SINCE_LOAD.test(err.message)) throw err;
    }
  }
}

/** Copies openclaw.json to the backup svc keeps before each of its writes. */
export function backUpConfig(stateDir: string): void {
  writeFileAtomic(backupFileOf(stateDir), readFileSync(gatewayPaths(stateDir).configFile, 'utf8'));
}

/** Thrown inside the locked edit to leave the file untouched (another writer got there first). */
class NothingToWrite extends Error {}

/**
 * Makes the config's allowAgents match `want` (gateway id -> ids it may
 * spawn) for every id that has an entry. No file: nothing written. A file that
 * does not parse: nothing written either (replacing it would lose the user's
 * agents); the caller reports it.
 */
export function writeAllowAgents(stateDir: string, want: ReadonlyMap<string, readonly string[]>, log: ConfigLog): SubagentsWrite {
  const read = readGatewayConfig(stateDir);
  if (read.corrupt) return { kind: 'corrupt' };
  if (!read.config) return { kind: 'no-config' };
  if (allowAgentsChanges(read.config, want).length === 0) return { kind: 'unchanged' };
  try {
    const agents = editGatewayConfig(stateDir, log, (config) => {
      // Re-read under the lock: the decision above was made without it.
      const changes = allowAgentsChanges(config, want);
      if (changes.length === 0) throw new NothingToWrite();
      backUpConfig(stateDir);
      const entries = entriesOf(config) as JsonObject;
      for (const [id, list] of changes) child(child(entries, id), 'subagents').allowAgents = list;
      return changes.map(([id]) => id);
    });
    log.info({ agents }, 'gateway subagents.allowAgents written from svc teams');
    return { kind: 'written', agents };
  } catch (err) {
    if (err instanceof NothingToWrite) return { kind: 'unchanged' };
    // The file went away between the read and the lock: there is nothing to keep in step.
    if (isMissingFile(err)) return { kind: 'no-config' };
    throw err;
  }
}
