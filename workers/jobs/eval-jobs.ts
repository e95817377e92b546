// Eval smoke trials for the piscina pool (spec "Observability", POST
// /api/eval/smoke). A trial opens its own temporary database, builds the
// real domain over it, runs one catalogue task and removes the directory;
// it shares no connection with the thread's other jobs.
import type { JobArg } from '../../shared/channels/jobs.ts';
import { findEvalTask, runTrial, type TrialResult } from '../../shared/eval/index.ts';

/** The argument was parsed with the contract's schema (main.ts). */
export function evalTrial({ taskId }: JobArg<'evalTrial'>): TrialResult {
  const task = findEvalTask(taskId);
  if (!task) throw new Error(`unknown eval task ${taskId}`);
  return runTrial(task);
}
