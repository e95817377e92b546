// A package-manager install with streamed output (spec "install-gateway";
// self-update and the Node install, node-install.ts, use the same frames).
// The outcome is the exit code; a permission-denied line on stderr is
// reported once as an informational EACCES frame while the stream goes on. The child is killed
// when the route's client goes away (the abort signal) or after the bound.
// npm sees the system essentials and its own npm_config_* settings, never
// svc's secrets (its install scripts are other people's code).
import { execa } from 'execa';
import { childEnv } from '../../shared/config.ts';
import { killTree } from '../../shared/process-tree.ts';
import type { OpEmitter } from './lifecycle.ts';
import { cleanLines, IS_WINDOWS, platformSpawnOptions, trackChild } from './proc.ts';
import { messageOf } from '../../shared/errors.ts';

/** First install of openclaw takes about a minute; a stuck registry must not hold a stream forever. */
export const INSTALL_TIMEOUT_MS = 15 * 60_000;
const PERMISSION_RE = /\bEACCES\b|\bEPERM\b|permission denied|operation not permitted/i;

export interface InstallOptions {
  /** What `npm i -g` installs. */
  spec: string;
  emit: OpEmitter;
  signal: AbortSignal;
  /** Called after exit 0; its answer is the complete frame's version. */
  versionAfter: () => Promise<string>;
  timeoutMs?: number;
  /** Added to npm's allowlisted environment (install-gateway: the PATH with the managed Node first). */
  env?: Record<string, string | undefined>;
}

/** One npm run with streamed output; the caller emits the first and the last frame of a success. */
export interface NpmRunOptions {
  args: string[];
  emit: OpEmitter;
  signal: AbortSignal;
  timeoutMs?: number;
  env?: Record<string, string | undefined>;
  /** The informational frame for a permission-denied line (null: none). */
  permissionMessage: string | null;
  /** Sees every output line; a failed exit asks `failure` which error frame to send instead of EXIT_<code>. */
  onLine?: (line: string) => void;
  failure?: () => { code: string; message: string } | null;
}

const GLOBAL_PERMISSION_MESSAGE =
  'Permission denied writing the global npm folder: use a user-level prefix (npm config set prefix ~/.npm-global) or an account allowed to write it';

function lineSplitter(onLine: (line: string) => void) {
  let partial = '';
  return {
    push(chunk: Buffer | string) {
      const text = partial + chunk.toString();
      const cut = text.lastIndexOf('\n');
      partial = cut >= 0 ? text.slice(cut + 1) : text;
      if (cut >= 0) for (const line of cleanLines(text.slice(0, cut))) onLine(line);
    },
    flush() {
      for (const line of cleanLines(partial)) onLine(line);
      partial = '';
    },
  };
}

/** Runs `npm i -g <spec>`; resolves with the outcome once its last frame is out. */
export async function runGlobalInstall(opts: InstallOptions): Promise<'complete' | 'error'> {
  opts.emit.progress('installing', `Installing ${opts.spec}...`);
  const ok = await runNpm({
    args: ['install', '-g', opts.spec],
    emit: opts.emit,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    env: opts.env,
    permissionMessage: GLOBAL_PERMISSION_MESSAGE,
  });
  if (!ok) return 'error';
  opts.emit.complete({ version: await opts.versionAfter() });
  return 'complete';
}

/** Runs npm with `args`; true on exit 0, else its error frame is out. */
export async function runNpm(opts: NpmRunOptions): Promise<boolean> {
  const { emit } = opts;
  const timeoutMs = opts.timeoutMs ?? INSTALL_TIMEOUT_MS;
  let child;
  try {
    child = execa('npm', opts.args, {
      ...platformSpawnOptions,
      env: childEnv(opts.env ?? {}, 'npm'),
      extendEnv: false,
      stdin: 'ignore',
      buffer: false,
      reject: false,
      // Its own process group, so a cancel reaches npm's script children too
      // (npm does not pass a SIGTERM on to them).
      detached: !IS_WINDOWS,
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
  } catch (err) {
    emit.error('SPAWN_THROW', `Failed to start npm: ${messageOf(err)}`);
    return false;
  }
  let cancelled = false;
  const pid = child.pid;
  const onAbort = () => {
    cancelled = true;
    if (pid !== undefined) killTree(pid);
  };
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener('abort', onAbort, { once: true });
  let permissionReported = false;
  const line = (l: string) => {
    emit.output(l);
    opts.onLine?.(l);
  };
  const out = lineSplitter(line);
  const err = lineSplitter((l) => {
    line(l);
    if (opts.permissionMessage !== null && !permissionReported && PERMISSION_RE.test(l)) {
      permissionReported = true;
      emit.error('EACCES', opts.permissionMessage);
    }
  });
  child.stdout?.on('data', (d: Buffer) => out.push(d));
  child.stderr?.on('data', (d: Buffer) => err.push(d));
  const r = await trackChild(pid, child);
  opts.signal.removeEventListener('abort', onAbort);
  // The bound killed npm itself; its script children go with the group.
  if (r.timedOut && pid !== undefined) killTree(pid);
  out.flush();
  err.flush();
  if (r.exitCode === 0) return true;
  const known = cancelled || r.timedOut ? null : (opts.failure?.() ?? null);
  if (cancelled) emit.error('CANCELLED', 'Install cancelled: the client went away');
  else if (r.timedOut) emit.error('TIMEOUT', `Install did not finish within ${Math.round(timeoutMs / 1000)} s`);
  else if (known) emit.error(known.code, known.message);
  else if (r.exitCode === undefined && r.signal) emit.error(`EXIT_${r.signal}`, `npm was killed by ${r.signal}`);
  else if (r.exitCode === undefined) emit.error('SPAWN_ERROR', `Failed to run npm: ${r.originalMessage ?? r.shortMessage ?? 'spawn failed'}`);
  else emit.error(`EXIT_${r.exitCode}`, `npm exited with code ${r.exitCode}`);
  return false;
}
