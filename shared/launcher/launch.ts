// The default action, `svc` with no command (spec "Command-line launcher"):
// (1) note whether a gateway answers on 18789, (2) find a running dashboard,
// (3) if one runs, compare its version and offer a restart when it is older,
// (4) else start one detached, (5) poll until it answers, (6) open it.
import { GATEWAY_PORT } from './constants.ts';
import { discoverDashboard } from './discover.ts';
import type { LauncherContext } from './io.ts';
import { tcpCheck } from './probe.ts';
import { askYesNo } from './prompt.ts';
import { runRestart } from './restart.ts';
import { showDashboard } from './show.ts';
import { startDashboard } from './start.ts';
import { fetchRunningVersion, versionVerdict } from './version.ts';

export interface LaunchOptions {
  open: boolean;
  versionCheck: boolean;
  yes: boolean;
  /** Whether a user can answer a prompt (stdin and stdout are a terminal). */
  interactive: boolean;
  ask?: (question: string) => Promise<boolean>;
}

/** Informational only: the launcher never fails on the gateway's absence. */
async function reportGateway(ctx: LauncherContext): Promise<void> {
  const up = await tcpCheck(GATEWAY_PORT);
  ctx.io.out(
    up
      ? `Gateway: something is listening on 127.0.0.1:${GATEWAY_PORT}.`
      : `Gateway: nothing is listening on 127.0.0.1:${GATEWAY_PORT} (the dashboard can install and start it).`,
  );
}

/** True when the user (or -y) accepts restarting an older running dashboard. */
async function acceptRestart(ctx: LauncherContext, running: string, opts: LaunchOptions): Promise<boolean> {
  ctx.io.out(`The running dashboard is version ${running}; this launcher is ${ctx.config.version}.`);
  if (opts.yes) return true;
  if (!opts.interactive) {
    ctx.io.out('Not restarting without a terminal to ask; run `svc restart` (or `svc -y`) to upgrade it.');
    return false;
  }
  return (opts.ask ?? askYesNo)('Restart it now with this version?');
}

export async function runDefault(ctx: LauncherContext, opts: LaunchOptions): Promise<number> {
  await reportGateway(ctx);
  const found = await discoverDashboard(ctx);
  if (found.state === 'running' && opts.versionCheck) {
    // The token only to a dashboard discovery authorized with it (svc's own recorded port).
    const running = await fetchRunningVersion(found.port, found.authorized ? ctx.accessToken : null);
    if (running !== null && versionVerdict(running, ctx.config.version) === 'older') {
      if (await acceptRestart(ctx, running, opts)) return runRestart(ctx, { open: opts.open });
    }
  }
  if (found.state !== 'none') {
    if (found.state === 'gated') ctx.io.out(`An svc dashboard is already running on port ${found.port} (access gate on); not starting another.`);
    await showDashboard(ctx, found, { open: opts.open });
    return 0;
  }
  const started = await startDashboard(ctx);
  if (!started.ok) return 1;
  await showDashboard(ctx, started.found, { open: opts.open });
  return 0;
}
