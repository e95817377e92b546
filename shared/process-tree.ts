// Ending a program svc started together with what that program started. On
// POSIX svc runs such children in their own process group (spawned
// detached), so a signal to the group (-pid) also reaches npm's install
// scripts and a CLI's helpers; Windows has no such groups here: the pid alone.
import { messageOf } from './errors.ts';

const IS_WINDOWS = process.platform === 'win32';
export const KILL_GRACE_MS = 2000;

/** Sends `sig` to the child's group; false when nothing was there. Other failures go to `report` (never thrown: this runs from timers). */
export function signalTree(pid: number, sig: NodeJS.Signals, report: (message: string) => void = console.error): boolean {
  try {
    process.kill(IS_WINDOWS ? pid : -pid, sig);
    return true;
  } catch (err) {
    // ESRCH: already gone, which is the goal.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH') report(`svc: could not send ${sig} to process group ${pid}: ${messageOf(err)}`);
    return false;
  }
}

/** SIGTERM to the group now, SIGKILL to what is left after the grace. */
export function killTree(pid: number, opts: { graceMs?: number; report?: (message: string) => void } = {}): void {
  if (!signalTree(pid, 'SIGTERM', opts.report)) return;
  setTimeout(() => void signalTree(pid, 'SIGKILL', opts.report), opts.graceMs ?? KILL_GRACE_MS).unref();
}
