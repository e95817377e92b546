// The piscina pool for short jobs. Created on first use (boot does not pay
// for threads it may not need), threads exit when idle, every job has a
// timeout. A job aborted while it runs costs its thread: piscina terminates
// it and starts another when needed.
import { Piscina } from 'piscina';
import { TrialResultSchema, type TrialResult } from '../shared/eval/types.ts';
import type { ScanInput } from '../shared/skills/injection-scan.ts';
import { SkillScanJobArg, SkillScanJobResult, type ScanOutcome } from '../shared/skills/schemas.ts';
import type { JobName } from '../workers/jobs/main.ts';
import { workerEntry, workerLaunch } from './supervision.ts';

export const JOB_TIMEOUT_MS = 60_000;
/** Threads at most: two shared cores here (ARCHITECTURE "the pool is for CPU-heavy work"). */
export const POOL_MAX_THREADS = 2;

export interface JobPool {
  integrityCheck(dbPath: string): Promise<string[]>;
  /** One eval smoke trial of a catalogue task, on its own temporary database in a pool thread. */
  evalTrial(taskId: string): Promise<TrialResult>;
  /**
   * The skill injection scan in a pool thread, stopped after `timeoutMs`
   * (time waiting for a free thread included): then `{ timedOut: true }`.
   */
  skillScan(input: ScanInput, timeoutMs: number): Promise<ScanOutcome>;
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
  const run = async <T>(name: JobName, arg: unknown, signal = AbortSignal.timeout(JOB_TIMEOUT_MS)): Promise<T> =>
    (await get().run({ name, arg }, { signal })) as T;
  return {
    integrityCheck: (dbPath) => run<string[]>('integrityCheck', { dbPath }),
    // The reply crossed a thread: validated before anyone reads it.
    evalTrial: async (taskId) => TrialResultSchema.parse(await run<unknown>('evalTrial', { taskId })),
    async skillScan(input, timeoutMs) {
      const signal = AbortSignal.timeout(timeoutMs);
      let reply: unknown;
      try {
        reply = await run<unknown>('skillScan', SkillScanJobArg.parse(input), signal);
      } catch (err) {
        // Our own time limit: an answer, not a failure. Anything else (the pool closing, a crashed thread) is one.
        if (signal.aborted && err instanceof Error && err.name === 'AbortError') return { timedOut: true, timeoutMs };
        throw err;
      }
      return { findings: SkillScanJobResult.parse(reply) };
    },
    size: POOL_MAX_THREADS,
    destroy: async () => {
      if (pool) await pool.destroy();
      pool = null;
    },
  };
}
