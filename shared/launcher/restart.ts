// `svc restart`: stop, then start pinned to the old port. The successor gets
// SVC_API_PORT=<old port> and SVC_AWAIT_PORT=1, so it waits for the port to
// free (and starts unpinned if it never does; that is the server's rule).
import type { LauncherContext } from './io.ts';
import { showDashboard } from './show.ts';
import { startDashboard } from './start.ts';
import { stopDashboard } from './stop.ts';

export interface RestartOptions {
  open: boolean;
}

export async function runRestart(ctx: LauncherContext, opts: RestartOptions): Promise<number> {
  const stopped = await stopDashboard(ctx);
  if (!stopped.ok) {
    ctx.io.err('Not starting a new dashboard while the old one may still be running.');
    return 1;
  }
  const pin: Record<string, string> =
    stopped.port !== null ? { SVC_API_PORT: String(stopped.port), SVC_AWAIT_PORT: '1' } : {};
  const started = await startDashboard(ctx, pin, { preferPort: stopped.port ?? undefined });
  if (!started.ok) return 1;
  await showDashboard(ctx, started.found, { open: opts.open });
  return 0;
}
