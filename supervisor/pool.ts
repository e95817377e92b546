// The piscina pool for short jobs. Created on first use (boot does not pay
// for threads it may not need), threads exit when idle, every job has a
// timeout.
import { Piscina } from 'piscina';
import type { JobName } from '../workers/jobs/main.ts';
import { workerEntry, workerLaunch } from './supervision.ts';

export const JOB_TIMEOUT_MS = 60_000;

export interface JobPool {
  integrityCheck(dbPath: string): Promise<string[]>;
  destroy(): Promise<void>;
}

export function createJobPool(): JobPool {
  let pool: Piscina | null = null;
  const launch = workerLaunch(workerEntry('../workers/jobs/main'), {});
  const get = () =>
    (pool ??= new Piscina({
      filename: launch.url.href,
      workerData: launch.data,
      minThreads: 0,
      maxThreads: 2,
      idleTimeout: 30_000,
    }));
  const run = async <T>(name: JobName, arg: unknown): Promise<T> =>
    (await get().run({ name, arg }, { signal: AbortSignal.timeout(JOB_TIMEOUT_MS) })) as T;
  return {
    integrityCheck: (dbPath) => run<string[]>('integrityCheck', { dbPath }),
    destroy: async () => {
      if (pool) await pool.destroy();
      pool = null;
    },
  };
}
