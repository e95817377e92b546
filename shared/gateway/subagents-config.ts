// Who each gateway agent may hand work to with `sessions_spawn`: the list
// `agents.entries.<id>.subagents.allowAgents` in openclaw.json, which the
// gateway enforces (RECIPE §11: an unlisted target is answered `forbidden`),
// read here; the gateway reconciler (shared/gateway-wiring/roster.ts) writes
// it. Also the two ways svc writes the gateway's config: the gateway's own
// `config.patch` (with the hash `config.get` gives), and the copy of the
// file svc keeps before each of its writes (`openclaw.json.svc-bak`; the
// gateway's own `.bak` is its to rotate).
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../fs-safe.ts';
import { ownValue } from '../object-keys.ts';
import { gatewayPaths } from '../paths.ts';
import { getPath, isJsonObject, type JsonObject } from './config-file.ts';

/** The file svc copies openclaw.json to before each of its writes. */
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

/** A request to the running gateway (svc's gateway link). */
export type GatewayCall = (method: string, params: unknown) => Promise<unknown>;

const CHANGED_SINCE_LOAD = /config changed since last load/;

/**
 * Applies a merge patch through the gateway's own `config.patch`, which
 * takes the hash of the config it patches (`config.get`): a list the patch
 * shortens is refused without it. A config changed between the two calls
 * is read again once.
 */
export async function patchThroughGateway(call: GatewayCall, patch: { raw: string; replacePaths: string[] }, note: string): Promise<void> {
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
