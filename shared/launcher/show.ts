// The last step of `svc` and `svc restart`: print where the dashboard is and
// open it in a browser unless told not to or there is no display (CI).
import type { LauncherContext } from './io.ts';
import { openBrowser } from './open-browser.ts';
import type { Found } from './start.ts';

export interface ShowOptions {
  open: boolean;
  /** Replaces the opener, for tests. */
  opener?: (url: string, onError: (line: string) => void) => Promise<void>;
}

export function dashboardUrl(port: number): string {
  return `http://localhost:${port}`;
}

export async function showDashboard(ctx: LauncherContext, found: Found, opts: ShowOptions): Promise<void> {
  const url = dashboardUrl(found.port);
  // The browser holds no session yet even when the launcher's token opened the gate.
  if (found.state === 'gated' || found.authorized) {
    ctx.io.out(`svc dashboard on port ${found.port} (access gate on): ${url}`);
    // The token itself is never printed; the user holds it.
    ctx.io.out('Open it with ?access_token=<your STUDIO_ACCESS_TOKEN> once to set the access cookie.');
  } else {
    ctx.io.out(`svc dashboard: ${url}`);
  }
  if (!opts.open || !ctx.config.canOpenBrowser) return;
  await (opts.opener ?? openBrowser)(url, ctx.io.err);
}
