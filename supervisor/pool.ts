// The piscina pool for short jobs. Created on first use (boot does not pay
// for threads it may not need), threads exit when idle, every job has a
// timeout.
import { Piscina } from 'piscina';
import { TrialResultSchema, type TrialResult } from '../shared/eval/types.ts';
import type { JobName } from '../workers/jobs/main.ts';
import { workerEntry, workerLaunch } from './supervision.ts';

export const JOB_TIMEOUT_MS = 60_000;
/** Threads at most: two shared cores here (ARCHITECTURE "the pool is for CPU-heavy work"). */
export const POOL_MAX_THREADS = 2;

export interface JobPool {
  integrityCheck(dbPath: string): Promise<string[]>;
  /** One eval smoke trial of a catalogue task, on its own temporary database in a pool thread. */
  evalTrial(taskId: string): Promise<TrialResult>;
  /** How many jobs can run at once: callers fanning out work keep at most this many in flight. */
  readonly size: number;
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
      maxThreads: POOL_MAX_THREADS,
      idleTimeout: 30_000,
    }));
  const run = async <T>(name: JobName, arg: unknown): Promise<T> =>
    (await get().run({ name, arg }, { signal: AbortSignal.timeout(JOB_TIMEOUT_MS) })) as T;
  return {
    integrityCheck: (dbPath) => run<string[]>('integrityCheck', { dbPath }),
    // The reply crossed a thread: validated before anyone reads it.
    evalTrial: async (taskId) => TrialResultSchema.parse(await run<unknown>('evalTrial', { taskId })),
    size: POOL_MAX_THREADS,
    destroy: async () => {
      if (pool) await pool.destroy();
      pool = null;
    },
  };
}
