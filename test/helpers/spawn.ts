// Child processes in tests: started with their output collected, waited for
// by their own events (a line printed, the exit once every stream is
// drained), and stopped by their own PID. A deadline only stops a hung test
// (see wait.ts); it never stands in for the event.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { deadline, DEFAULT_WAIT_MS } from './wait.ts';

/** Absolute, so a child started from any working directory finds tsx. */
export const TSX = import.meta.resolve('tsx');

/** Arguments for `node` to run a TypeScript entry through tsx. */
export function tsArgs(entry: string, ...args: string[]): string[] {
  return ['--import', TSX, entry, ...args];
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartChildOptions extends Omit<SpawnOptions, 'stdio'> {
  /** 'pipe' to write to the child's stdin through `proc.stdin` (default 'ignore'). */
  stdin?: 'ignore' | 'pipe';
  /** Kills the child (SIGKILL, by its PID) when this test ends, if it still runs. */
  cleanup?: { after(fn: () => void | Promise<void>): void };
}

export interface RunningChild {
  proc: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr interleaved as they arrived. */
  output(): string;
  running(): boolean;
  /** The exit, once the process has ended and its stdout and stderr are drained ('close'). */
  exited: Promise<ChildExit>;
  /** The first whole line on stdout or stderr that matches; rejects when the child ends without one, or at the deadline. */
  line(match: string | RegExp, opts?: { what?: string; timeoutMs?: number }): Promise<string>;
  /** Sends `signal` (default SIGTERM) to the child's PID, SIGKILL after `graceMs`; resolves with the exit. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<ChildExit>;
}

export function startChild(command: string, args: readonly string[], opts: StartChildOptions = {}): RunningChild {
  const { stdin = 'ignore', cleanup, ...spawnOpts } = opts;
  const proc = spawn(command, args, { ...spawnOpts, stdio: [stdin, 'pipe', 'pipe'] });
  const name = `${command.split('/').pop() ?? command} ${args.join(' ')}`.slice(0, 200);
  let stdout = '';
  let stderr = '';
  let output = '';
  const lines: string[] = [];
  const partial = { stdout: '', stderr: '' };
  const listeners = new Set<(line: string | null) => void>();
  const onData = (stream: 'stdout' | 'stderr') => (d: Buffer) => {
    const text = d.toString();
    if (stream === 'stdout') stdout += text;
    else stderr += text;
    output += text;
    const parts = (partial[stream] + text).split('\n');
    partial[stream] = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const l of [...listeners]) l(line);
    }
  };
  proc.stdout?.on('data', onData('stdout'));
  proc.stderr?.on('data', onData('stderr'));
  let closed = false;
  const exited = new Promise<ChildExit>((resolve, reject) => {
    proc.once('error', reject);
    proc.once('close', (code, signal) => {
      closed = true;
      // A last line without a newline still counts once the stream is done.
      for (const stream of ['stdout', 'stderr'] as const) {
        if (partial[stream] === '') continue;
        lines.push(partial[stream]);
        for (const l of [...listeners]) l(partial[stream]);
        partial[stream] = '';
      }
      for (const l of [...listeners]) l(null);
      resolve({ code, signal });
    });
  });
  // Callers that never await `exited` must not see an unhandled rejection for a spawn error; `line` and `stop` report it.
  exited.catch(() => undefined);
  const running = () => proc.exitCode === null && proc.signalCode === null;
  const kill = (signal: NodeJS.Signals) => {
    if (running() && proc.pid !== undefined) process.kill(proc.pid, signal);
  };
  cleanup?.after(() => kill('SIGKILL'));

  return {
    proc,
    pid: proc.pid as number,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    running,
    exited,
    line(match, { what, timeoutMs } = {}) {
      const hit = (line: string) => (typeof match === 'string' ? line.includes(match) : match.test(line));
      const found = lines.find(hit);
      if (found !== undefined) return Promise.resolve(found);
      const awaited = new Promise<string>((resolve, reject) => {
        if (closed) return reject(new Error(`${name} ended without a line matching ${String(match)}:\n${output}`));
        const listener = (line: string | null) => {
          if (line === null) {
            listeners.delete(listener);
            reject(new Error(`${name} ended without a line matching ${String(match)}:\n${output}`));
          } else if (hit(line)) {
            listeners.delete(listener);
            resolve(line);
          }
        };
        listeners.add(listener);
      });
      return deadline(awaited, { what: what ?? `${name} to print a line matching ${String(match)}`, timeoutMs }).catch((err: Error) => {
        throw new Error(`${err.message}\n--- output so far ---\n${output}`);
      });
    },
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (!running()) return exited;
      kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const force = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          kill('SIGKILL');
          resolve();
        }, graceMs);
      });
      await Promise.race([exited, force]);
      clearTimeout(timer);
      return exited;
    },
  };
}

export interface ChildRun extends ChildExit {
  stdout: string;
  stderr: string;
  output: string;
}

/** Runs a child to its exit (it must end on its own) and returns its exit and output. */
export async function runChild(command: string, args: readonly string[], opts: Omit<StartChildOptions, 'cleanup'> & { timeoutMs?: number } = {}): Promise<ChildRun> {
  const { timeoutMs = DEFAULT_WAIT_MS, ...rest } = opts;
  const child = startChild(command, args, rest);
  try {
    const exit = await deadline(child.exited, { what: `${command} ${args.join(' ')} to exit`.slice(0, 200), timeoutMs });
    return { ...exit, stdout: child.stdout(), stderr: child.stderr(), output: child.output() };
  } catch (err) {
    if (child.running() && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- output ---\n${child.output()}`);
  }
}
