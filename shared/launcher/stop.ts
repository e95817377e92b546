// `svc stop`: find the dashboard, resolve the process that owns its
// listening port, SIGTERM it, watch the port (not the PID) for up to 4 s,
// then SIGKILL only a process still holding the port.
import { STOP_GRACE_MS } from './constants.ts';
import { discoverDashboard } from './discover.ts';
import type { LauncherContext } from './io.ts';
import { manualStopCommand, pidFromPort } from './pid-from-port.ts';
import { removePortFile } from './port-file.ts';
import { tcpCheck } from './probe.ts';
import { messageOf } from '../errors.ts';

/** `port` is the port the stopped server held (null when none was running). */
export type DashboardStopResult = { ok: true; port: number | null } | { ok: false };

/** Time allowed for the port to free after SIGKILL. */
const KILL_GRACE_MS = 2000;
/** After the port frees, how long to let the old process finish its shutdown. */
const EXIT_GRACE_MS = 10_000;
const WATCH_INTERVAL_MS = 100;

export async function waitPortFree(port: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (!(await tcpCheck(port, undefined, 500))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, WATCH_INTERVAL_MS));
  }
}

/** Whether a process exists (EPERM: it exists but is not ours). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // ESRCH: gone. EPERM: alive but not ours; it is not what we wait for.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The port frees as soon as the server stops listening, but it goes on
 * closing its database and removes api-port.txt last. A successor started
 * before that could lose its freshly written port file, so wait (bounded).
 */
async function waitExited(pids: number[], withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, WATCH_INTERVAL_MS));
}

function signalAll(ctx: LauncherContext, pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // ESRCH: it exited on its own meanwhile, which is what we want.
      if (code !== 'ESRCH') ctx.io.err(`svc: could not send ${signal} to pid ${pid}: ${messageOf(err)}`);
    }
  }
}

export async function stopDashboard(ctx: LauncherContext, graceMs = STOP_GRACE_MS): Promise<DashboardStopResult> {
  const { io } = ctx;
  const found = await discoverDashboard(ctx);
  if (found.state === 'none') {
    io.out('No svc dashboard is running.');
    if (removePortFile(ctx, null)) io.out(`Removed the stale ${ctx.paths.apiPortFile}.`);
    return { ok: true, port: null };
  }
  const { port } = found;
  const lookup = pidFromPort(port);
  const pids = lookup.kind === 'found' ? lookup.pids : null;
  if (found.state === 'gated') {
    io.err(`An svc dashboard is running on port ${port} with the access gate on; without its token the launcher will not terminate it.`);
    io.err(`To stop it by hand: ${manualStopCommand(port, pids)}`);
    return { ok: false };
  }
  if (!pids) {
    const why = lookup.kind === 'no-tool' ? lookup.reason : 'no process was found listening on it';
    io.err(`Could not find the process that owns port ${port}: ${why}.`);
    io.err(`To stop it by hand: ${manualStopCommand(port, null)}`);
    return { ok: false };
  }
  io.out(`Stopping the svc dashboard on port ${port} (pid ${pids.join(', ')})...`);
  signalAll(ctx, pids, 'SIGTERM');
  let freed = await waitPortFree(port, graceMs);
  if (!freed) {
    // Only whoever holds the port now is killed: the PID may have been reused.
    const again = pidFromPort(port);
    if (again.kind === 'found') {
      io.out(`Still running after ${graceMs / 1000} s; sending SIGKILL to pid ${again.pids.join(', ')}.`);
      signalAll(ctx, again.pids, 'SIGKILL');
    }
    freed = await waitPortFree(port, KILL_GRACE_MS);
  }
  if (!freed) {
    io.err(`Could not stop the svc dashboard on port ${port}.`);
    io.err(`To stop it by hand: ${manualStopCommand(port, pids)}`);
    return { ok: false };
  }
  await waitExited(pids, EXIT_GRACE_MS);
  removePortFile(ctx, port);
  io.out(`Stopped the svc dashboard on port ${port}.`);
  return { ok: true, port };
}
