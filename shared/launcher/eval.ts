// `svc eval [--trials N] [--k K] [--json]`: the deterministic smoke suite
// run in this process (no server, no model, no network), printed as a table
// or as the JSON that POST /api/eval/smoke answers. The exit code is for CI:
// 0 when every task passed every trial, 1 otherwise.
import { parseEvalOptions, runSuiteInProcess, suitePassed, type EvalTask, type SuiteReport } from '../eval/index.ts';
import type { Io } from './io.ts';

export interface EvalCliOptions {
  trials?: number;
  k?: number;
  json?: boolean;
  /** The catalogue to run (tests pass a failing task to see exit code 1); default: the whole suite. */
  tasks?: readonly EvalTask[];
}


const fixed = (n: number) => n.toFixed(2);

/** The report as a table a person reads, with each failing grader named. */
export function formatEvalReport(report: SuiteReport): string[] {
  const trials = report.tasks[0]?.trials.length ?? 0;
  const width = Math.max(4, ...report.tasks.map((t) => t.taskId.length)) + 2;
  const row = (task: string, suite: string, kind: string, a: string, b: string, c: string) =>
    `${task.padEnd(width)}${suite.padEnd(12)}${kind.padEnd(14)}${a.padStart(6)}  ${b.padStart(6)}  ${c.padStart(5)}`.trimEnd();
  const lines = [
    `svc eval: ${report.tasks.length} tasks, ${trials} trial${trials === 1 ? '' : 's'} each, k = ${report.k}`,
    row('TASK', 'SUITE', 'KIND', 'PASS@1', 'PASS^K', 'SCORE'),
    ...report.tasks.map((t) => row(t.taskId, t.suite, t.kind, fixed(t.passAt1), fixed(t.passPowK), fixed(t.meanScore))),
    row('macro average', '', '', fixed(report.passAt1), fixed(report.passPowK), ''),
  ];
  for (const t of report.tasks) {
    t.trials.forEach((trial, i) => {
      for (const g of trial.graders) if (!g.passed) lines.push(`FAIL ${t.taskId} trial ${i + 1}: ${g.name} (${g.detail})`);
    });
  }
  lines.push(suitePassed(report) ? 'ok: every task passed every trial' : 'failed: at least one task did not pass every trial');
  return lines;
}

export async function runEval(io: Io, opts: EvalCliOptions): Promise<number> {
  const { trials, k } = parseEvalOptions({ trials: opts.trials, k: opts.k });
  const report = await runSuiteInProcess({ trials, k, tasks: opts.tasks });
  if (opts.json === true) io.out(JSON.stringify(report));
  else for (const line of formatEvalReport(report)) io.out(line);
  return suitePassed(report) ? 0 : 1;
}
