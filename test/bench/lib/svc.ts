// Starts the production build (dist/supervisor/main.js) as a child process on
// 127.0.0.1 with a temporary SVC_HOME (fresh, or one a benchmark seeded
// beforehand), and stops it by PID.
import { join } from 'node:path';
import { REPO_ROOT, freePort, removeHome, tempHome, testEnv } from '../../helpers/server.ts';
import { SERVER_NODE_FLAGS } from '../../../shared/launcher/node-flags.ts';
import { waitFor200 } from './http.ts';
import { spawnNode, type Proc } from './processes.ts';

/** The production build's entry; BENCH_SVC_ENTRY points at another build (for an A/B comparison of a patch). */
export const DIST_ENTRY = process.env.BENCH_SVC_ENTRY ?? join(REPO_ROOT, 'dist', 'supervisor', 'main.js');

export interface Svc {
  port: number;
  home: string;
  dbPath: string;
  proc: Proc;
  /** Stops the server and removes its home. */
  stop(): Promise<void>;
}

/**
 * A benchmark's svc runs with the general rate limit on but out of reach
 * (`SVC_RATE_LIMIT=999999999` a minute): the load comes from one address at
 * far more than the default 20,000 a minute, and a 429 is not the answer
 * being measured, but the limiter's own cost per request is.
 */
export function svcEnv(home: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return testEnv(home, { SVC_API_PORT: String(port), LOG_LEVEL: 'warn', SVC_RATE_LIMIT: '999999999', ...extra });
}

export interface StartSvcOptions {
  /**
   * A home prepared beforehand (from tempHome(), e.g. with a seeded svc.db);
   * the returned Svc owns it from then on: stop() removes it, and so does a
   * failed start. Default: a fresh temporary home.
   */
  home?: string;
}

export async function startSvc(extra: Record<string, string> = {}, opts: StartSvcOptions = {}): Promise<Svc> {
  const home = opts.home ?? tempHome('svc-bench-');
  const port = await freePort().catch((err: unknown) => {
    removeHome(home);
    throw err;
  });
  // Started as `npm start` and the launcher start it: with the production node flags.
  const proc = spawnNode([...SERVER_NODE_FLAGS, DIST_ENTRY], svcEnv(home, port, extra));
  const stop = async () => {
    try {
      await proc.stop();
    } finally {
      removeHome(home);
    }
  };
  try {
    await waitFor200(port, '/api/settings', proc);
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, home, dbPath: join(home, 'svc.db'), proc, stop };
}
