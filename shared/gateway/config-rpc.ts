// Writing the running gateway's config over svc's own connection: the call
// as the gateway link makes it, the link as a writer sees it, and
// `config.patch`, which takes the hash of the config it patches
// (`config.get`). Also the copy of openclaw.json svc keeps before each of its
// writes (`openclaw.json.svc-bak`; the gateway's own `.bak` is its to rotate).
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../fs-safe.ts';
import { gatewayPaths } from '../paths.ts';

/** A request to the running gateway (svc's gateway link). */
export type GatewayCall = (method: string, params: unknown) => Promise<unknown>;

/** The running gateway as svc's link reaches it. */
export interface GatewayReach {
  connected(): boolean;
  call: GatewayCall;
}

const CHANGED_SINCE_LOAD = /config changed since last load/;

/** The gateway refused a patch because its config changed after svc read it (someone else wrote it meanwhile): nothing was written. */
export const changedSinceLoad = (err: unknown): boolean => err instanceof Error && CHANGED_SINCE_LOAD.test(err.message);

/** How many times a patch refused as changed-since-load is read again and retried (the file may be edited while the gateway reloads it). */
const PATCH_ATTEMPTS = 3;

/**
 * Applies a merge patch through the gateway's own `config.patch`, which
 * takes the hash of the config it patches (`config.get`): a list the patch
 * shortens is refused without it. A config changed between the two calls
 * is read again (up to PATCH_ATTEMPTS in all).
 */
export async function patchThroughGateway(call: GatewayCall, patch: { raw: string; replacePaths: string[] }, note: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const snapshot = (await call('config.get', {})) as { hash?: unknown } | null;
    const baseHash = typeof snapshot?.hash === 'string' ? snapshot.hash : undefined;
    try {
      await call('config.patch', { ...patch, ...(baseHash ? { baseHash } : {}), note });
      return;
    } catch (err) {
      if (attempt + 1 >= PATCH_ATTEMPTS || !changedSinceLoad(err)) throw err;
    }
  }
}

/** The file svc copies openclaw.json to before each of its writes. */
export const backupFileOf = (stateDir: string): string => `${gatewayPaths(stateDir).configFile}.svc-bak`;

/** Copies openclaw.json to the backup svc keeps before each of its writes. */
export function backUpConfig(stateDir: string): void {
  writeFileAtomic(backupFileOf(stateDir), readFileSync(gatewayPaths(stateDir).configFile, 'utf8'));
}
