// `svc eval` end to end (spec "Observability", POST /api/eval/smoke; issue:
// "the eval suite run as ... the CLI"): the real bin/svc.ts as a child
// process, no server, a temporary SVC_HOME and TMPDIR, so we can see that
// every trial's temporary database is gone when it exits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EVAL_TASKS, TRIAL_DIR_PREFIX } from '../../shared/eval/index.ts';
import { LAUNCHER_ENTRY, REPO_ROOT, removeHome, tempHome, testEnv } from '../helpers/server.ts';
import { runChild, tsArgs, type ChildRun } from '../helpers/spawn.ts';

function svcEval(args: string[], env: NodeJS.ProcessEnv): Promise<ChildRun> {
  return runChild(process.execPath, tsArgs(LAUNCHER_ENTRY, 'eval', ...args), { cwd: REPO_ROOT, env, timeoutMs: 60_000 });
}

interface Report {
  tasks: Array<{ taskId: string; suite: string; kind: string; trials: Array<{ passed: boolean }>; passAt1: number; passPowK: number; meanScore: number }>;
  passAt1: number;
  passPowK: number;
  k: number;
}

// tsx keeps its own cache in TMPDIR too: only the suite's directories count.
const trialDirs = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith(TRIAL_DIR_PREFIX));

function setup(t: { after(fn: () => void): void }): { env: NodeJS.ProcessEnv; tmp: string } {
  const home = tempHome();
  t.after(() => removeHome(home));
  const tmp = join(home, 'tmp');
  mkdirSync(tmp);
  return { env: testEnv(home, { TMPDIR: tmp }), tmp };
}

void test('Observability: svc eval --json --trials 2 exits 0 with the smoke report and leaves no temporary database', async (t) => {
  const { env, tmp } = setup(t);
  const run = await svcEval(['--json', '--trials', '2'], env);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as Report;
  assert.equal(report.k, 2, 'k defaults to trials');
  assert.deepEqual(report.tasks.map((x) => x.taskId), EVAL_TASKS.map((x) => x.id));
  assert.ok(report.tasks.every((x) => x.trials.length === 2 && x.trials.every((tr) => tr.passed)));
  assert.ok(report.tasks.every((x) => x.passAt1 === 1 && x.passPowK === 1 && x.meanScore === 1));
  assert.deepEqual([report.passAt1, report.passPowK], [1, 1]);
  assert.deepEqual(new Set(report.tasks.map((x) => x.suite)), new Set(['capability', 'regression']));
  assert.deepEqual(new Set(report.tasks.map((x) => x.kind)), new Set(['coding', 'research', 'coordination']));
  assert.deepEqual(trialDirs(tmp), [], 'every trial directory removed');
});

void test('Observability: svc eval --trials 1 --k 3 reports k 3; the table form names every task', async (t) => {
  const { env, tmp } = setup(t);
  const json = await svcEval(['--trials', '1', '--k', '3', '--json'], env);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as Report;
  assert.equal(report.k, 3);
  assert.ok(report.tasks.every((x) => x.trials.length === 1 && x.passPowK === x.passAt1 ** 3));

  const table = await svcEval(['--trials', '9'], env);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^svc eval: \d+ tasks, 3 trials each, k = 3$/m);
  for (const task of EVAL_TASKS) assert.match(table.stdout, new RegExp(`^${task.id} +${task.suite} +${task.kind} +1\\.00`, 'm'));
  assert.match(table.stdout, /^ok: every task passed every trial$/m);

  const bad = await svcEval(['--trials', 'many'], env);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--trials <n>' argument 'many' is invalid/);
  assert.deepEqual(trialDirs(tmp), []);
});
