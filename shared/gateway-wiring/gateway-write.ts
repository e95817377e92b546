// Writes one reconcile's changes into the gateway and reads them back. The
// order never leaves the gateway naming something that is not there: the
// `.env` first (new tokens in, old ones out: the gateway keeps every value
// it has read until it restarts, so a run on the old config still finds its
// variables), then the config in one write. Connected, the write is the
// gateway's own `config.patch` (a file edited beside a running gateway can
// go unnoticed, delegation.md); a refusal writes nothing to the file and the
// `.env` changes of the round are put back: nothing is left half-written.
// Not connected, the file is edited under its lock, copied to `.svc-bak`
// first. Either way the config is read back and every change checked.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { editGatewayConfig, type ConfigLog } from '../gateway/config-file.ts';
import { updateGatewayEnv } from '../gateway/env-file.ts';
import { backUpConfig, changedSinceLoad, patchThroughGateway, type GatewayReach } from '../gateway/config-rpc.ts';
import { writeFileAtomic } from '../fs-safe.ts';
import { messageOf } from '../errors.ts';
import { GatewayError } from '../gateway/protocol.ts';
import { readGatewayConfig, readGatewayEnv } from '../settings/gateway-files.ts';
import { applyOps, dottable, mergePatchOf, mismatches, replacePathsOf, stepsBySize, type ConfigOp } from './config-ops.ts';
import type { GatewayRead } from './gateway-read.ts';

export const WRITE_ERRORS = {
  noEnv: "svc cannot reach the gateway's .env (the gateway's files are not on this machine, or not where its config.get says)",
  dotted: 'an agent or provider id with a dot in it cannot be named in config.patch, and the gateway\'s file is not on this machine',
} as const;

/** The gateway refused or failed the write; `where` says which step. */
export class GatewayWriteError extends Error {
  constructor(
    readonly where: 'env' | 'config' | 'read-back',
    message: string,
    /** The gateway did not answer in time: the write may still land. */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'GatewayWriteError';
  }
}

export interface WriteDeps {
  gateway: GatewayReach;
  log: ConfigLog;
}

export interface WriteResult {
  via: 'gateway' | 'file' | 'none';
  /** Paths whose value the read-back does not show as written (empty when all landed). */
  mismatches: string[][];
  /** `.env` holds variables the running gateway has not been made to read yet: the next round asks it again. */
  envPending: boolean;
}

/** Whether a round's `.env` changes add or set a variable (not only remove). */
export const addsEnv = (changes: Readonly<Record<string, string | null>>): boolean => Object.values(changes).some((v) => v !== null);

/** The previous values of the names a change set touches, to put them back. */
function undoOf(env: Readonly<Record<string, string>>, changes: Readonly<Record<string, string | null>>): Record<string, string | null> {
  const out: Record<string, string | null> = Object.create(null) as Record<string, string | null>;
  for (const name of Object.keys(changes)) out[name] = Object.hasOwn(env, name) ? (env[name] as string) : null;
  return out;
}

/**
 * Makes a running gateway take `.env` variables svc just added. It reads
 * `.env` again only when it next reads a changed config from disk
 * (`config.get` after a write), and resolves its secret references again on
 * `secrets.reload`; without both, a reference to a new variable stays
 * "secret reference was not found" until the gateway restarts. Verified on
 * openclaw 2026.9.6: a variable added after the gateway's last config read
 * is unresolved after `config.patch` alone, resolved after these two calls.
 */
async function takeNewEnv(deps: WriteDeps): Promise<boolean> {
  try {
    await deps.gateway.call('config.get', {});
    await deps.gateway.call('secrets.reload', {});
    return true;
  } catch (err) {
    // The write itself stands; the next round asks again (envPending), or the gateway picks the variables up at its restart.
    deps.log.warn({ error: messageOf(err) }, "the gateway did not reload its secrets after svc's write; svc asks again at its next round");
    return false;
  }
}

async function writeConfig(deps: WriteDeps, read: GatewayRead, ops: readonly ConfigOp[]): Promise<'gateway' | 'file'> {
  if (read.via === 'gateway' && dottable(ops)) {
    if (read.stateDir !== null) {
      try {
        backUpConfig(read.stateDir);
      } catch (err) {
        // The gateway writes its own `.bak` on a patch; svc's copy is a second one, not a condition of the write.
        deps.log.warn({ error: messageOf(err) }, "svc's copy of openclaw.json before its write could not be made");
      }
    }
    // A large removal (the undo) goes in steps: the gateway refuses one write that halves its config.
    const config = structuredClone(read.config);
    for (const step of stepsBySize(config, ops)) {
      await patchThroughGateway(deps.gateway.call, { raw: JSON.stringify(mergePatchOf(step)), replacePaths: replacePathsOf(config, step) }, 'svc: what svc wires into the gateway');
      applyOps(config, step);
    }
    return 'gateway';
  }
  if (read.stateDir === null) throw new Error(WRITE_ERRORS.dotted);
  const stateDir = read.stateDir;
  editGatewayConfig(stateDir, deps.log, (config) => {
    backUpConfig(stateDir);
    applyOps(config, ops);
  });
  return 'file';
}

/** The config after the write: the file when svc reaches it (config.get masks secrets), else the gateway's copy. */
async function readBack(deps: WriteDeps, read: GatewayRead): Promise<unknown> {
  if (read.stateDir !== null) return readGatewayConfig(dirname(read.configPath)).config;
  return ((await deps.gateway.call('config.get', {})) as { parsed?: unknown } | null)?.parsed;
}

/**
 * Writes the `.env` changes, then the config ops; reads the config back.
 * Throws GatewayWriteError (with the .env put back) when a step fails.
 * `envPending`: an earlier round left variables in `.env` that the gateway
 * was not made to read (its write was refused as changed since load, or
 * timed out, and the variables stayed for the retry).
 */
export async function writeGateway(
  deps: WriteDeps,
  read: GatewayRead,
  ops: readonly ConfigOp[],
  envChanges: Readonly<Record<string, string | null>>,
  envPending = false,
): Promise<WriteResult> {
  const envTouched = Object.keys(envChanges).length > 0;
  if (envTouched && read.stateDir === null) throw new GatewayWriteError('env', WRITE_ERRORS.noEnv);
  let undo: Record<string, string | null> | null = null;
  if (envTouched) {
    const stateDir = read.stateDir as string;
    undo = undoOf(readGatewayEnv(stateDir), envChanges);
    try {
      updateGatewayEnv(stateDir, envChanges);
    } catch (err) {
      throw new GatewayWriteError('env', `writing the gateway's .env failed: ${messageOf(err)}`);
    }
  }
  const added = addsEnv(envChanges);
  if (ops.length === 0) {
    // Only the running gateway needs telling, and only when it is reached (a gateway not reached reads .env when it starts).
    const taken = read.via === 'gateway' && (added || envPending) ? await takeNewEnv(deps) : true;
    return { via: 'none', mismatches: [], envPending: (envPending || added) && !taken };
  }
  let via: 'gateway' | 'file';
  let taken = true;
  try {
    via = await writeConfig(deps, read, ops);
    // Only when there is something new to read: a reload refreshes the gateway's model runtime under its running sessions.
    if (via === 'gateway' && (added || envPending)) taken = await takeNewEnv(deps);
  } catch (err) {
    // A refusal wrote nothing, so the .env goes back; a write that timed out may still land, and must find its variables.
    // A write refused because the config changed meanwhile is tried again: the gateway reads a .env variable's
    // name once, so taking it away and adding it back would leave the retried config naming a variable it lacks.
    const timedOut = err instanceof GatewayError && err.code === 'TIMEOUT';
    if (undo && !timedOut && !changedSinceLoad(err)) {
      try {
        updateGatewayEnv(read.stateDir as string, undo);
      } catch (undoErr) {
        // The variables svc added stay unused (no config names them); the next reconcile plans them again.
        deps.log.warn({ error: messageOf(undoErr) }, "putting the gateway's .env back after a refused config write failed");
      }
    }
    throw new GatewayWriteError('config', messageOf(err), timedOut);
  }
  let after: unknown;
  try {
    after = await readBack(deps, read);
  } catch (err) {
    throw new GatewayWriteError('read-back', `reading the config back failed: ${messageOf(err)}`);
  }
  return { via, mismatches: mismatches(after, ops), envPending: via === 'gateway' && !taken };
}

/**
 * Keeps a copy of openclaw.json as it was before svc's first change (0600,
 * beside it when svc can write there, else in svc's own folder). Returns
 * where it is.
 */
export function keepOriginal(read: GatewayRead, fallbackFile: string, log: ConfigLog): string {
  const text = read.stateDir !== null ? readFileSync(read.configPath, 'utf8') : (read.raw ?? `${JSON.stringify(read.config, null, 2)}\n`);
  if (read.stateDir !== null) {
    const beside = `${read.configPath}.before-svc`;
    try {
      writeFileAtomic(beside, text);
      return beside;
    } catch (err) {
      log.warn({ error: messageOf(err) }, "the gateway's folder does not take svc's copy of openclaw.json; keeping it in svc's own folder");
    }
  }
  writeFileAtomic(fallbackFile, text);
  return fallbackFile;
}
