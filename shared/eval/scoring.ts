// The suite's numbers (spec "Observability", POST /api/eval/smoke): a trial
// scores the mean of its graders and passes when all pass; a task's passAt1
// is its passed trials over its trials, passPowK = passAt1^k (the chance that
// k trials in a row pass), meanScore the mean trial score; the suite's
// passAt1 and passPowK are macro averages (every task weighs the same).
// trials and k are floored and clamped to 1-3 (spec "Limits").
import { z } from 'zod';
import type { EvalTask, GraderResult, SuiteReport, TaskReport, TrialResult } from './types.ts';

export const EVAL_COUNT_MIN = 1;
export const EVAL_COUNT_MAX = 3;

/** Floors and clamps a trial count or k to 1-3. */
export const clampCount = (n: number): number => Math.min(EVAL_COUNT_MAX, Math.max(EVAL_COUNT_MIN, Math.floor(n)));

// The spec ignores rather than rejects a wrong-typed field (and a body that
// is not an object): it falls back to the default, hence the .catch().
const EvalOptionsInput = z
  .object({
    trials: z.number().optional().catch(undefined),
    k: z.number().optional().catch(undefined),
  })
  .catch({});

export interface EvalOptions {
  trials: number;
  k: number;
}

/** `{ trials?, k? }` as the route and the CLI accept it: trials defaults to 1, k to trials. */
export function parseEvalOptions(input: unknown): EvalOptions {
  const raw = EvalOptionsInput.parse(input ?? {});
  const trials = raw.trials === undefined ? EVAL_COUNT_MIN : clampCount(raw.trials);
  const k = raw.k === undefined ? trials : clampCount(raw.k);
  return { trials, k };
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export function scoreTrial(taskId: string, graders: GraderResult[]): TrialResult {
  return {
    taskId,
    passed: graders.length > 0 && graders.every((g) => g.passed),
    score: mean(graders.map((g) => g.score)),
    graders,
  };
}

export function scoreTask(task: Pick<EvalTask, 'id' | 'suite' | 'kind'>, trials: TrialResult[], k: number): TaskReport {
  const passAt1 = trials.length === 0 ? 0 : trials.filter((t) => t.passed).length / trials.length;
  return {
    taskId: task.id,
    suite: task.suite,
    kind: task.kind,
    trials,
    passAt1,
    passPowK: passAt1 ** k,
    meanScore: mean(trials.map((t) => t.score)),
  };
}

export function scoreSuite(tasks: TaskReport[], k: number): SuiteReport {
  return {
    tasks,
    passAt1: mean(tasks.map((t) => t.passAt1)),
    passPowK: mean(tasks.map((t) => t.passPowK)),
    k,
  };
}

/** The CI verdict: every task passed every trial. */
export const suitePassed = (report: SuiteReport): boolean => report.tasks.every((t) => t.passAt1 === 1);
