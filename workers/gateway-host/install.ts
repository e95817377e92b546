// A global package-manager install with streamed output (spec
// "install-gateway"; self-update uses the same frames). The outcome is the
// exit code; a permission-denied line on stderr is reported once as an
// informational EACCES frame while the stream goes on. The child is killed
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
}

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
  const { emit } = opts;
  emit.progress('installing', `Installing ${opts.spec}...`);
  let child;
  try {
    child = execa('npm', ['install', '-g', opts.spec], {
      ...platformSpawnOptions,
      env: childEnv({}, 'npm'),
      extendEnv: false,
      stdin: 'ignore',
      buffer: false,
      reject: false,
      // Its own process group, so a cancel reaches npm's script children too
      // (npm does not pass a SIGTERM on to them).
      detached: !IS_WINDOWS,
      timeout: opts.timeoutMs ?? INSTALL_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
  } catch (err) {
    emit.error('SPAWN_THROW', `Failed to start npm: ${messageOf(err)}`);
    return 'error';
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
  const out = lineSplitter((line) => emit.output(line));
  const err = lineSplitter((line) => {
    emit.output(line);
    if (!permissionReported && PERMISSION_RE.test(line)) {
      permissionReported = true;
      emit.error('EACCES', 'Permission denied writing the global npm folder: use a user-level prefix (npm config set prefix ~/.npm-global) or an account allowed to write it');
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
  if (r.exitCode === 0) {
    emit.complete({ version: await opts.versionAfter() });
    return 'complete';
  }
  if (cancelled) emit.error('CANCELLED', 'Install cancelled: the client went away');
  else if (r.timedOut) emit.error('TIMEOUT', `Install did not finish within ${Math.round((opts.timeoutMs ?? INSTALL_TIMEOUT_MS) / 1000)} s`);
  else if (r.exitCode === undefined && r.signal) emit.error(`EXIT_${r.signal}`, `npm was killed by ${r.signal}`);
  else if (r.exitCode === undefined) emit.error('SPAWN_ERROR', `Failed to run npm: ${r.originalMessage ?? r.shortMessage ?? 'spawn failed'}`);
  else emit.error(`EXIT_${r.exitCode}`, `npm exited with code ${r.exitCode}`);
  return 'error';
}
