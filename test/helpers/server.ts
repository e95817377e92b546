// Starts svc as a child process on real sockets with a temporary SVC_HOME,
// for end-to-end tests. The child is stopped by its own PID when the test ends.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, tsArgs } from './spawn.ts';
import { waitFor } from './wait.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_ENTRY = join(REPO_ROOT, 'supervisor', 'main.ts');
/** The build of SERVER_ENTRY (`npm run build`), what `npm start` runs. */
export const BUILT_SERVER_ENTRY = join(REPO_ROOT, 'dist', 'supervisor', 'main.js');
/**
 * How a test starts svc: the build when test/run.mjs found it newer than
 * every source (it sets SVC_TEST_BUILT), else the source through tsx. The
 * build starts in a third of the time: under tsx every worker thread loads
 * the loader again. A file run on its own, without the runner, runs the
 * source, so it never tests a stale build.
 */
export function serverArgs(): string[] {
  return process.env.SVC_TEST_BUILT === '1' ? [BUILT_SERVER_ENTRY] : tsArgs(SERVER_ENTRY);
}
export const LAUNCHER_ENTRY = join(REPO_ROOT, 'bin', 'svc.ts');

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function tempHome(prefix = 'svc-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Environment for a child: no inherited SVC, gate or gateway variables, loopback everything. */
export function testEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(SVC_|STUDIO_|OPENCLAW_|GATEWAY_|OTEL_|HOST$|NODE_ENV$)/.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    SVC_HOME: home,
    OPENCLAW_STATE_DIR: join(home, 'gateway-state'),
    LOG_LEVEL: 'warn',
    CI: 'true',
    // No test reaches past loopback: remote defaults are off unless a test points them at a local server.
    SVC_CATALOG_INDEX_URL: 'off',
    SVC_UPDATE_REGISTRY: 'off',
    ...extra,
  };
}

export interface RunningServer {
  port: number;
  home: string;
  base: string;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  home?: string;
  port?: number;
  env?: Record<string, string>;
  /** 'exit': resolve once the server has exited (a refused start) instead of waiting for readiness. */
  waitFor?: 'ready' | 'exit';
  /** Stops a start that hangs (default 60 s); never an assertion. */
  timeoutMs?: number;
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const home = opts.home ?? tempHome();
  const port = opts.port ?? (await freePort());
  const child = startChild(process.execPath, serverArgs(), {
    cwd: REPO_ROOT,
    env: testEnv(home, { SVC_API_PORT: String(port), ...opts.env }),
  });
  const base = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    port,
    home,
    base,
    proc: child.proc,
    output: child.output,
    async stop(signal = 'SIGTERM') {
      if (!child.running()) return child.proc.exitCode;
      return (await child.stop(signal, 10_000)).code;
    },
  };
  if (opts.waitFor === 'exit') {
    await child.exited;
    return server;
  }
  // Ready once it answers GET /api/settings; a refused connection is "not yet" (waitFor counts a throw as that).
  const state = await waitFor(
    async () => {
      if (!child.running()) return 'exited' as const;
      const r = await fetch(`${base}/api/settings`, { signal: AbortSignal.timeout(5000) });
      await r.body?.cancel();
      return r.status < 500 ? ('ready' as const) : undefined;
    },
    { what: `svc on port ${port} to answer`, timeoutMs: opts.timeoutMs ?? 60_000, intervalMs: 100 },
  ).catch((err: Error) => {
    child.proc.kill('SIGKILL');
    throw new Error(`server did not become ready: ${err.message}\n${child.output()}`);
  });
  if (state === 'exited') throw new Error(`server exited early (${child.proc.exitCode}):\n${child.output()}`);
  return server;
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/**
 * Stops the server (by its PID) and removes its home when the test ends;
 * `keepHome`: the home is a running gateway's too (the gateway's state
 * directory is inside it), and whoever stops that gateway removes it.
 */
export function stopAfter(t: { after(fn: () => Promise<void> | void): void }, s: RunningServer, opts: { keepHome?: boolean } = {}): RunningServer {
  t.after(async () => {
    await s.stop();
    if (!opts.keepHome) removeHome(s.home);
  });
  return s;
}

/** The ingest worker's counters from GET /api/health; undefined until the worker serves its channel. */
export async function ingestWorkerStats(base: string): Promise<Record<string, number> | undefined> {
  const h = (await (await fetch(`${base}/api/health`)).json()) as { workers: Array<{ name: string; stats?: Record<string, number> }> };
  return h.workers.find((w) => w.name === 'ingest')?.stats;
}

/** Waits until the ingest worker serves (batches go to it from then on); its counters then. */
export function untilIngestWorkerServes(base: string): Promise<Record<string, number>> {
  return waitFor(() => ingestWorkerStats(base), { what: 'the ingest worker to serve its channel', intervalMs: 50 });
}
