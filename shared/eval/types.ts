// The eval smoke suite's shapes (spec "Observability", POST /api/eval/smoke).
// The trial result is a zod schema because it crosses a thread: a pool
// thread produces it and the supervisor validates it on receipt.
import { z } from 'zod';
import type { Domain } from '../domain.ts';
import type { Db } from '../db/open.ts';
import type { EventRow } from '../events/types.ts';

export const EVAL_SUITES = ['capability', 'regression'] as const;
export type EvalSuite = (typeof EVAL_SUITES)[number];

export const EVAL_KINDS = ['coding', 'research', 'coordination'] as const;
export type EvalKind = (typeof EVAL_KINDS)[number];

export const GraderResultSchema = z.object({
  name: z.string(),
  passed: z.boolean(),
  score: z.number().min(0).max(1),
  detail: z.string(),
});
export type GraderResult = z.infer<typeof GraderResultSchema>;

export const TrialResultSchema = z.object({
  taskId: z.string(),
  passed: z.boolean(),
  score: z.number().min(0).max(1),
  graders: z.array(GraderResultSchema),
});
export type TrialResult = z.infer<typeof TrialResultSchema>;

export interface TaskReport {
  taskId: string;
  suite: EvalSuite;
  kind: EvalKind;
  trials: TrialResult[];
  passAt1: number;
  passPowK: number;
  meanScore: number;
}

export interface SuiteReport {
  tasks: TaskReport[];
  passAt1: number;
  passPowK: number;
  k: number;
}

/** What a scenario and its graders are given: a fresh domain on the trial's own temporary database. */
export interface TrialContext {
  /** Teams, agents and the board over the trial's primary connection. */
  domain: Domain;
  /** The same database, for graders that read rows and events. */
  db: Db;
  /**
   * A domain over a second connection to the same file: another agent's
   * process (an MCP server, the team-chat worker) sharing the WAL database.
   */
  peer(): Domain;
  /** The event log rows for one task (or all), in commit order. */
  events(taskId?: string): EventRow[];
}

/** A code grader: reads the scenario's outcome and the database, returns a 0-1 score. */
export type Grader<O> = (outcome: O, ctx: TrialContext) => GraderResult;

/** How a task is written: a scenario against the real rules, then code graders over what it left. */
export interface EvalTaskSpec<O> {
  id: string;
  suite: EvalSuite;
  kind: EvalKind;
  /** One line: what a passing run proves. */
  proves: string;
  scenario(ctx: TrialContext): O;
  graders: ReadonlyArray<Grader<O>>;
}

/** A task of the catalogue, its outcome type erased: run it, get its graders' verdicts. */
export interface EvalTask {
  id: string;
  suite: EvalSuite;
  kind: EvalKind;
  proves: string;
  run(ctx: TrialContext): GraderResult[];
}
