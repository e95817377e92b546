// Cleaning up `<svcHome>/api-port.txt` after a stop: the server removes it on
// a graceful shutdown, but a force-kill (or Windows, where no shutdown
// handler runs) leaves it behind.
import { existsSync, rmSync } from 'node:fs';
import { readPortFile } from './discover.ts';
import type { LauncherContext } from './io.ts';
import { messageOf } from '../errors.ts';

/**
 * Removes the port file unless it names a different port than `port` (a
 * newer server may already have written its own). `port` null: remove it
 * whatever it says (nothing is running).
 */
export function removePortFile(ctx: LauncherContext, port: number | null): boolean {
  const file = ctx.paths.apiPortFile;
  if (!existsSync(file)) return false;
  const recorded = readPortFile(file, ctx.io.err);
  if (port !== null && recorded !== null && recorded !== port) return false;
  try {
    rmSync(file, { force: true });
    return true;
  } catch (err) {
    // A leftover port file only costs the next discovery one failed probe.
    ctx.io.err(`svc: could not remove ${file}: ${messageOf(err)}`);
    return false;
  }
}
