// The piscina pool for short jobs. Created on first use (boot does not pay
// for threads it may not need), threads exit when idle, every job has a
// timeout and takes its caller's abort signal. A job aborted while it runs
// costs its thread: piscina terminates it and starts another when needed.
// What crosses the thread is the jobs contract's (shared/channels/jobs.ts):
// the argument is parsed before it is sent, the reply and its result when
// they come back.
import { Piscina } from 'piscina';
import { CHANNEL_VERSION } from '../../shared/channels/contract.ts';
import {
  JOB_ERROR, JOB_SCHEMAS, JobReply, describeIssues,
  type JobArgInput, type JobErrorCode, type JobName, type JobResult, type JobTask,
} from '../../shared/channels/jobs.ts';
import type { TrialResult } from '../../shared/eval/types.ts';
import type { ScanInput } from '../../shared/skills/injection-scan.ts';
import type { ScanOutcome } from '../../shared/skills/schemas.ts';
import { workerEntry, workerLaunch } from './supervision.ts';

export const JOB_TIMEOUT_MS = 60_000;
/** Threads at most: two shared cores here (ARCHITECTURE "the pool is for CPU-heavy work"). */
export const POOL_MAX_THREADS = 2;

/** A job that did not give a usable result, with one of the contract's JOB_ERROR codes. */
export class JobError extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'JobError';
  }
}

export interface JobOptions {
  /** The caller's abort (a request that went away, a shutdown): the job is stopped and the call rejects with ABORTED. */
  signal?: AbortSignal;
  /** The job's own limit, time waiting for a free thread included; JOB_TIMEOUT_MS unless said. The call rejects with TIMEOUT. */
  timeoutMs?: number;
}

export interface JobPool {
  /** Any job of the contract, by name: the result is parsed with the job's result schema. */
  run<N extends JobName>(name: N, arg: JobArgInput<N>, opts?: JobOptions): Promise<JobResult<N>>;
  integrityCheck(dbPath: string, opts?: Pick<JobOptions, 'signal'>): Promise<string[]>;
  /** One eval smoke trial of a catalogue task, on its own temporary database in a pool thread. */
  evalTrial(taskId: string, opts?: Pick<JobOptions, 'signal'>): Promise<TrialResult>;
  /**
   * The skill injection scan in a pool thread, stopped after `timeoutMs`
   * (time waiting for a free thread included): then `{ timedOut: true }`.
   * The caller's abort still rejects.
   */
  skillScan(input: ScanInput, timeoutMs: number, opts?: Pick<JobOptions, 'signal'>): Promise<ScanOutcome>;
  /** How many jobs can run at once: callers fanning out work keep at most this many in flight. */
  readonly size: number;
  destroy(): Promise<void>;
}

export interface JobPoolOptions {
  /** The pool threads' entry; tests point it at a fixture. Default: workers/jobs/main. */
  entry?: URL;
}

const isAbortError = (err: unknown) => err instanceof Error && err.name === 'AbortError';

export function createJobPool(opts: JobPoolOptions = {}): JobPool {
  let pool: Piscina | null = null;
  let nextId = 1;
  const launch = workerLaunch(opts.entry ?? workerEntry('jobs/main'), {});
  const get = () =>
    (pool ??= new Piscina({
      filename: launch.url.href,
      workerData: launch.data,
      minThreads: 0,
      maxThreads: POOL_MAX_THREADS,
      idleTimeout: 30_000,
    }));

  /** Sends one task and waits for its reply, under the job's time limit and the caller's signal. */
  const send = async (task: JobTask, { signal: caller, timeoutMs = JOB_TIMEOUT_MS }: JobOptions): Promise<unknown> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
    try {
      return await get().run(task, { signal });
    } catch (err) {
      // The caller's abort wins over the limit when both fired; anything else (the pool closing, a crashed thread) passes as is.
      if (!isAbortError(err)) throw err;
      if (caller?.aborted) throw new JobError(JOB_ERROR.aborted, `jobs.${task.name} aborted`);
      if (timeout.aborted) throw new JobError(JOB_ERROR.timeout, `jobs.${task.name} timed out after ${timeoutMs} ms`);
      throw err;
    }
  };

  const run = async <N extends JobName>(name: N, arg: JobArgInput<N>, jobOpts: JobOptions = {}): Promise<JobResult<N>> => {
    const schemas = JOB_SCHEMAS[name];
    const checked = schemas.arg.safeParse(arg);
    if (!checked.success) throw new JobError(JOB_ERROR.invalidArgument, `jobs.${name}: invalid argument (${describeIssues(checked.error)})`);
    const id = nextId++;
    const raw = await send({ v: CHANNEL_VERSION, id, name, arg: checked.data }, jobOpts);
    // The reply crossed a thread: validated before anyone reads it.
    const reply = JobReply.safeParse(raw);
    if (!reply.success || reply.data.id !== id) throw new JobError(JOB_ERROR.invalidReply, `jobs.${name}: malformed reply`);
    if (!reply.data.ok) throw new JobError(reply.data.error.code, reply.data.error.message);
    const result = schemas.result.safeParse(reply.data.result);
    if (!result.success) throw new JobError(JOB_ERROR.invalidResult, `jobs.${name}: invalid result (${describeIssues(result.error)})`);
    return result.data;
  };

  return {
    run,
    integrityCheck: (dbPath, o) => run('integrityCheck', { dbPath }, o),
    evalTrial: (taskId, o) => run('evalTrial', { taskId }, o),
    async skillScan(input, timeoutMs, o = {}) {
      try {
        return { findings: await run('skillScan', input, { ...o, timeoutMs }) };
      } catch (err) {
        // Our own time limit: an answer, not a failure. Anything else (the caller's abort, a crashed thread) is one.
        if (err instanceof JobError && err.code === JOB_ERROR.timeout) return { timedOut: true, timeoutMs };
        throw err;
      }
    },
    size: POOL_MAX_THREADS,
    destroy: async () => {
      if (pool) await pool.destroy();
      pool = null;
    },
  };
}
