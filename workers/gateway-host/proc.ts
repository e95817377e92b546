// Child processes of the gateway-host worker, through execa. On Windows the
// CLI and npm are command shims, so they need a shell and a hidden window;
// everywhere else neither (no shell means no quoting surprises). Every run
// here has a time bound, an environment from the allowlist for its kind
// (shared/config.ts childEnv: never svc's own secrets), and its own process
// group, reported to the supervisor while it runs (issue 15 #17): if this
// worker dies, the supervisor ends what it left running.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { execa } from 'execa';
import { childEnv, type ChildKind } from '../../shared/config.ts';
import { signalTree } from '../../shared/process-tree.ts';
import { messageOf } from '../../shared/errors.ts';

export const IS_WINDOWS = process.platform === 'win32';

/** The platform options the spec asks for: shell and hidden window on Windows only. */
export const platformSpawnOptions = IS_WINDOWS ? ({ shell: true, windowsHide: true } as const) : ({} as const);

/** Who hears about the children: main.ts passes them to the supervisor over the channel. */
export interface ChildWatch {
  started(pid: number): void;
  ended(pid: number): void;
}
let watch: ChildWatch = { started: () => undefined, ended: () => undefined };

export function watchChildren(w: ChildWatch): void {
  watch = w;
}

/** Reports a child for as long as `done` is pending (the gateway itself is never reported: it outlives svc by design). */
export function trackChild<T>(pid: number | undefined, done: Promise<T>): Promise<T> {
  if (pid === undefined) return done;
  watch.started(pid);
  const end = () => watch.ended(pid);
  return done.finally(end);
}

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the process could not be started at all. */
  spawnError: string | null;
}

/** Runs a command to completion within `timeoutMs` (then its whole group is killed); never throws. */
export async function runBounded(
  file: string,
  args: string[],
  opts: { timeoutMs: number; kind: ChildKind; env?: Record<string, string | undefined>; cwd?: string },
): Promise<RunResult> {
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const child = execa(file, args, {
      ...platformSpawnOptions,
      env: childEnv(opts.env, opts.kind),
      extendEnv: false,
      cwd: opts.cwd,
      // Its own process group, so the bound (and the supervisor, should this
      // worker die) reaches whatever the CLI started too.
      detached: !IS_WINDOWS,
      reject: false,
      stdin: 'ignore',
      maxBuffer: 4 * 1024 * 1024,
    });
    const pid = child.pid;
    if (pid !== undefined) {
      timer = setTimeout(() => {
        timedOut = true;
        signalTree(pid, 'SIGKILL');
      }, opts.timeoutMs);
    }
    const r = await trackChild(pid, child);
    const spawnError = r.exitCode === undefined && !timedOut ? (r.originalMessage ?? r.shortMessage ?? 'spawn failed') : null;
    return { exitCode: r.exitCode ?? null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), timedOut, spawnError };
  } catch (err) {
    // execa rejects even with reject:false for invalid options; report as a spawn failure.
    return { exitCode: null, stdout: '', stderr: '', timedOut: false, spawnError: messageOf(err) };
  } finally {
    clearTimeout(timer);
  }
}

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    if (!IS_WINDOWS) accessSync(p, constants.X_OK);
    return true;
  } catch {
    // Missing or not executable: not a candidate; the search goes on.
    return false;
  }
}

/** The first `name` on PATH (with PATHEXT on Windows), or null. */
export function whichOnPath(name: string, pathValue: string | undefined = childEnv().PATH): string | null {
  if (isAbsolute(name)) return isExecutableFile(name) ? name : null;
  const exts = IS_WINDOWS ? ['', ...(childEnv().PATHEXT ?? '.EXE;.CMD;.BAT').split(';').map((e) => e.toLowerCase())] : [''];
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

/** Splits text into trimmed, non-empty lines without ANSI colour codes (the gateway colours its log even when redirected). */
export function cleanLines(text: string): string[] {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
}
