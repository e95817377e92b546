// The deterministic eval smoke suite (spec "Observability", POST /api/eval/smoke).
export { EVAL_TASKS, findEvalTask } from './catalogue.ts';
export { attempt, check, checks, defineTask, refusedAs } from './graders.ts';
export type { Attempt } from './graders.ts';
export { clampCount, EVAL_COUNT_MAX, EVAL_COUNT_MIN, parseEvalOptions, scoreSuite, scoreTask, scoreTrial, suitePassed } from './scoring.ts';
export type { EvalOptions } from './scoring.ts';
export { runSuite, runSuiteInProcess } from './suite.ts';
export type { SuiteRunOptions } from './suite.ts';
export { EVAL_EPOCH_MS, runTrial, TRIAL_DIR_PREFIX } from './trial.ts';
export type { TrialOptions } from './trial.ts';
export { EVAL_KINDS, EVAL_SUITES, GraderResultSchema, TrialResultSchema } from './types.ts';
export type { EvalKind, EvalSuite, EvalTask, EvalTaskSpec, Grader, GraderResult, SuiteReport, TaskReport, TrialContext, TrialResult } from './types.ts';
