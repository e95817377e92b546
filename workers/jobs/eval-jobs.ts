// Eval smoke trials for the piscina pool (spec "Observability", POST
// /api/eval/smoke). A trial opens its own temporary database, builds the
// real domain over it, runs one catalogue task and removes the directory;
// it shares no connection with the thread's other jobs.
import { z } from 'zod';
import { findEvalTask, runTrial, type TrialResult } from '../../shared/eval/index.ts';

// What the supervisor sends; validated here because it crosses a thread.
const EvalTrialArg = z.object({ taskId: z.string().min(1) });

export function evalTrial(arg: unknown): TrialResult {
  const { taskId } = EvalTrialArg.parse(arg);
  const task = findEvalTask(taskId);
  if (!task) throw new Error(`unknown eval task ${taskId}`);
  return runTrial(task);
}
