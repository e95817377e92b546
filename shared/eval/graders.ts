// Building blocks for the suite's code graders and scenarios: a verdict from
// one condition or from several, a refusal captured as a value, and
// defineTask() which ties a scenario to its graders.
import { DomainError, type DomainErrorKind } from '../errors.ts';
import type { EvalTask, EvalTaskSpec, GraderResult } from './types.ts';

/** A pass/fail grader: score 1 or 0. */
export function check(name: string, passed: boolean, detail: string): GraderResult {
  return { name, passed, score: passed ? 1 : 0, detail };
}

/**
 * A grader made of several checks: the score is the share that hold, and it
 * passes only when all do. The detail names the ones that failed.
 */
export function checks(name: string, items: ReadonlyArray<readonly [label: string, ok: boolean]>): GraderResult {
  const failed = items.filter(([, ok]) => !ok).map(([label]) => label);
  const score = items.length === 0 ? 0 : (items.length - failed.length) / items.length;
  const detail = items.length === 0 ? 'no checks ran' : failed.length === 0 ? `all ${items.length} hold` : `failed: ${failed.join('; ')}`;
  return { name, passed: items.length > 0 && failed.length === 0, score, detail };
}

/** What an agent saw when it called the board: the value, or the refusal the front door would answer with. */
export type Attempt<T> =
  | { ok: true; value: T }
  | { ok: false; kind: DomainErrorKind; message: string; extra: Record<string, unknown> };

/**
 * Runs one domain call and captures a refusal (a DomainError: 400/404/409 at
 * the front door) as a value, so the scenario can go on as an agent would.
 * Anything else is a real failure and propagates: the trial fails with it.
 */
export function attempt<T>(fn: () => T): Attempt<T> {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, kind: err.kind, message: err.message, extra: err.extra };
    throw err;
  }
}

/** True when the attempt was refused as a conflict (409) with this message. */
export const refusedAs = (a: Attempt<unknown>, message: string): boolean =>
  !a.ok && a.kind === 'conflict' && a.message === message;

/** Describes an attempt for a grader's detail. */
export const describeAttempt = (a: Attempt<unknown>): string => (a.ok ? 'accepted' : `${a.kind}: ${a.message}`);

/** Erases a task's outcome type: the catalogue holds tasks of many outcome shapes. */
export function defineTask<O>(spec: EvalTaskSpec<O>): EvalTask {
  return {
    id: spec.id,
    suite: spec.suite,
    kind: spec.kind,
    proves: spec.proves,
    run(ctx) {
      const outcome = spec.scenario(ctx);
      return spec.graders.map((grade) => grade(outcome, ctx));
    },
  };
}
