// Runs the catalogue: every task `trials` times, through whichever trial
// runner the caller gives (the piscina pool in the server, in-process in the
// CLI), at most `concurrency` trials at a time, then scores the lot. Results
// keep catalogue order whatever order the trials finish in. The caller's
// signal (the client went away) stops the run: no trial starts after it
// fired, and the runner is given it to stop the trials in flight.
import { EVAL_TASKS } from './catalogue.ts';
import { clampCount, scoreSuite, scoreTask } from './scoring.ts';
import { runTrial } from './trial.ts';
import type { EvalTask, SuiteReport, TrialResult } from './types.ts';

export interface SuiteRunOptions {
  trials: number;
  k: number;
  /** Runs one trial of a task (each trial on its own temporary database); it should stop when `signal` fires. */
  runTrial: (task: EvalTask, signal?: AbortSignal) => Promise<TrialResult>;
  /** Trials in flight at once (the pool's size); default 1. */
  concurrency?: number;
  tasks?: readonly EvalTask[];
  /** Stops the run: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

export async function runSuite(opts: SuiteRunOptions): Promise<SuiteReport> {
  const trials = clampCount(opts.trials);
  const k = clampCount(opts.k);
  const tasks = opts.tasks ?? EVAL_TASKS;
  const jobs = tasks.flatMap((task, t) => Array.from({ length: trials }, (_, i) => ({ task, slot: t * trials + i })));
  const results: TrialResult[] = new Array<TrialResult>(jobs.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let job = jobs[next++]; job !== undefined; job = jobs[next++]) {
      opts.signal?.throwIfAborted();
      const result = await opts.runTrial(job.task, opts.signal);
      if (result.taskId !== job.task.id) throw new Error(`eval trial for ${job.task.id} answered for ${result.taskId}`);
      results[job.slot] = result;
    }
  };
  const lanes = Math.max(1, Math.min(jobs.length, Math.floor(opts.concurrency ?? 1)));
  await Promise.all(Array.from({ length: lanes }, lane));
  const reports = tasks.map((task, t) => scoreTask(task, results.slice(t * trials, (t + 1) * trials), k));
  return scoreSuite(reports, k);
}

/** The whole suite in this thread, one trial after another (the CLI; no server, no pool). */
export function runSuiteInProcess(opts: { trials: number; k: number; tasks?: readonly EvalTask[] }): Promise<SuiteReport> {
  return runSuite({ ...opts, runTrial: (task) => Promise.resolve().then(() => runTrial(task)) });
}
