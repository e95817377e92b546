// Starts svc as a child process on real sockets with a temporary SVC_HOME,
// for end-to-end tests. The child is stopped by its own PID when the test ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_ENTRY = join(REPO_ROOT, 'supervisor', 'main.ts');
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
  /** Resolve once this text appears in output instead of waiting for readiness. */
  waitFor?: 'ready' | 'exit';
  timeoutMs?: number;
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const home = opts.home ?? tempHome();
  const port = opts.port ?? (await freePort());
  const proc = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: testEnv(home, { SVC_API_PORT: String(port), ...opts.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    port,
    home,
    base,
    proc,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill(signal);
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  if (opts.waitFor === 'exit') {
    await exited;
    return server;
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    try {
      const r = await fetch(`${base}/api/settings`, { signal: AbortSignal.timeout(1000) });
      if (r.status < 500) return server;
    } catch {
      // Not listening yet: keep polling until the deadline.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${out}`);
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/** Stops the server (by its PID) and removes its home when the test ends. */
export function stopAfter(t: { after(fn: () => Promise<void> | void): void }, s: RunningServer): RunningServer {
  t.after(async () => {
    await s.stop();
    removeHome(s.home);
  });
  return s;
}

/** The ingest worker's counters from GET /api/health; undefined until the worker serves its channel. */
export async function ingestWorkerStats(base: string): Promise<Record<string, number> | undefined> {
  const h = (await (await fetch(`${base}/api/health`)).json()) as { workers: Array<{ name: string; stats?: Record<string, number> }> };
  return h.workers.find((w) => w.name === 'ingest')?.stats;
}

/** Waits until the ingest worker serves (batches go to it from then on); its counters then. */
export async function untilIngestWorkerServes(base: string): Promise<Record<string, number>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const stats = await ingestWorkerStats(base);
    if (stats) return stats;
    if (Date.now() > deadline) throw new Error('the ingest worker never served');
    await new Promise((r) => setTimeout(r, 50));
  }
}
