// Child processes for benchmarks: spawned from the repository root, their
// output kept for error messages, stopped by their own PID (SIGTERM, then
// SIGKILL after a deadline). Any child still alive when the bench process
// exits or is interrupted is killed by PID too.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from '../../helpers/server.ts';

const live = new Set<ChildProcess>();

const killLive = () => {
  for (const p of live) p.kill('SIGKILL');
};
process.once('exit', killLive);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    killLive();
    process.exit(130);
  });
}

export interface Proc {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  hasExited(): boolean;
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Tracks a child started elsewhere (e.g. with fork) so that it is stopped like the others. */
export function track(child: ChildProcess): Proc {
  if (child.pid === undefined) throw new Error('child process has no pid (spawn failed)');
  const pid = child.pid;
  live.add(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    pid,
    child,
    exited,
    hasExited,
    output: () => out,
    async stop(graceMs = 10_000) {
      if (hasExited()) return;
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => {
        if (!hasExited()) process.kill(pid, 'SIGKILL');
      }, graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Spawns `node <args>` from the repository root with the given environment. */
export function spawnNode(args: readonly string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return track(child);
}

/**
 * Pins every thread of a process to the given CPUs with taskset (util-linux).
 * Used to measure "per core": the server on one core, the load generator on
 * the other, so that they do not compete. Returns false when taskset is missing.
 */
export function pinToCpus(pid: number, cpus: string): boolean {
  const r = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
  return r.status === 0;
}
