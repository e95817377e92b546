// Starting a dashboard: spawn the server detached (it outlives the launcher)
// with its output appended to `<svcHome>/logs/server.log`, then poll port
// discovery every 500 ms, up to 90 attempts. A timeout never starts a second
// server; a child that exits early is reported with its log's path.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { POLL_ATTEMPTS, POLL_INTERVAL_MS } from './constants.ts';
import { discoverDashboard, withToken, type Discovery } from './discover.ts';
import type { LauncherContext } from './io.ts';
import { probeDashboard } from './probe.ts';
import { resolveServerEntry, type ServerEntry } from './server-entry.ts';

export type Found = Exclude<Discovery, { state: 'none' }>;
export type StartResult = { ok: true; found: Found; pid: number | undefined } | { ok: false };

export const INSTALL_HINT =
  'Run svc from a checkout of its repository (`npm ci && npm start`), ' +
  'or set SVC_SERVER_PATH to its supervisor/main.ts or dist/supervisor/main.js.';

interface ChildState {
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  error: Error | null;
}

function spawnDetached(ctx: LauncherContext, entry: ServerEntry): { child: ChildProcess; state: ChildState } {
  mkdirSync(ctx.paths.logsDir, { recursive: true, mode: 0o700 });
  const log = openSync(ctx.paths.serverLogFile, 'a', 0o600);
  let child: ChildProcess;
  try {
    child = spawn(entry.command, entry.args, {
      cwd: entry.cwd,
      env: entry.env,
      detached: true,
      stdio: ['ignore', log, log],
      windowsHide: true,
    });
  } finally {
    // The child holds its own copy of the descriptor.
    closeSync(log);
  }
  const state: ChildState = { exit: null, error: null };
  child.once('exit', (code, signal) => (state.exit = { code, signal }));
  child.once('error', (err) => (state.error = err));
  child.unref();
  return { child, state };
}

export interface PollOptions {
  attempts?: number;
  intervalMs?: number;
  /** A port to probe first each round (restart's pinned port), before the usual discovery. */
  preferPort?: number;
}

async function findStarted(ctx: LauncherContext, preferPort: number | undefined): Promise<Discovery> {
  if (preferPort !== undefined) {
    const result = await probeDashboard(preferPort);
    if (result === 'svc') return { state: 'running', port: preferPort };
    if (result === 'gated') return withToken(ctx, { state: 'gated', port: preferPort });
  }
  return discoverDashboard(ctx);
}

/** Spawns the server (extraEnv on top of the launcher's environment) and waits until discovery finds it. */
export async function startDashboard(
  ctx: LauncherContext,
  extraEnv: Record<string, string> = {},
  poll: PollOptions = {},
): Promise<StartResult> {
  const { io } = ctx;
  const resolved = resolveServerEntry(ctx.config, extraEnv);
  if (!resolved.ok) {
    io.err(`svc: cannot start a dashboard: ${resolved.problem}.`);
    io.err(INSTALL_HINT);
    return { ok: false };
  }
  const { entry } = resolved;
  io.out(`Starting the svc dashboard${entry.kind === 'development' ? ` (development server ${entry.entry})` : ''}...`);
  const { child, state } = spawnDetached(ctx, entry);
  const attempts = poll.attempts ?? POLL_ATTEMPTS;
  const intervalMs = poll.intervalMs ?? POLL_INTERVAL_MS;
  for (let i = 0; i < attempts; i++) {
    await new Promise((r) => setTimeout(r, intervalMs));
    const found = await findStarted(ctx, poll.preferPort);
    if (found.state !== 'none') return { ok: true, found, pid: child.pid };
    if (state.error) {
      io.err(`svc: could not start the server: ${state.error.message}`);
      return { ok: false };
    }
    if (state.exit) {
      const how = state.exit.signal ? `signal ${state.exit.signal}` : `exit code ${state.exit.code}`;
      io.err(`svc: the server exited during startup (${how}). See ${ctx.paths.serverLogFile}`);
      return { ok: false };
    }
  }
  io.err(
    `svc: the dashboard did not answer within ${Math.round((attempts * intervalMs) / 1000)} s. ` +
      `It may still be starting; see ${ctx.paths.serverLogFile}`,
  );
  return { ok: false };
}
