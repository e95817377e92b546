// The deterministic eval smoke suite (spec "Observability", POST
// /api/eval/smoke; issue: "the eval suite run as a test"): the catalogue
// passes on svc's real rules, the scoring math, the temporary databases, and
// proof that the graders fail when a board rule is broken on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import { BOARD_MESSAGES } from '../../shared/board/transitions.ts';
import type { Domain } from '../../shared/domain.ts';
import { DomainError } from '../../shared/errors.ts';
import {
  check,
  clampCount,
  defineTask,
  EVAL_KINDS,
  EVAL_SUITES,
  EVAL_TASKS,
  findEvalTask,
  parseEvalOptions,
  runSuite,
  runSuiteInProcess,
  runTrial,
  scoreSuite,
  scoreTask,
  type EvalTask,
  type TrialResult,
} from '../../shared/eval/index.ts';
import { runEval } from '../../shared/launcher/eval.ts';

const task = (id: string): EvalTask => {
  const t = findEvalTask(id);
  assert.ok(t, `catalogue has ${id}`);
  return t;
};

const failing = (r: TrialResult) => r.graders.filter((g) => !g.passed).map((g) => g.name);

function tempRoot(t: { after(fn: () => void): void }): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-eval-test-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

void test('Eval smoke: every catalogue task passes on the real rules, covering both suites and all three kinds', async () => {
  assert.ok(EVAL_TASKS.length >= 6);
  assert.equal(new Set(EVAL_TASKS.map((t) => t.id)).size, EVAL_TASKS.length, 'task ids are unique');
  for (const suite of EVAL_SUITES) assert.ok(EVAL_TASKS.some((t) => t.suite === suite), `suite ${suite} covered`);
  for (const kind of EVAL_KINDS) assert.ok(EVAL_TASKS.some((t) => t.kind === kind), `kind ${kind} covered`);

  const report = await runSuiteInProcess({ trials: 2, k: 2 });
  assert.equal(report.k, 2);
  assert.deepEqual(report.tasks.map((t) => t.taskId), EVAL_TASKS.map((t) => t.id));
  for (const t of report.tasks) {
    assert.equal(t.trials.length, 2);
    for (const trial of t.trials) {
      assert.deepEqual(failing(trial), [], `${t.taskId}: ${JSON.stringify(trial.graders.filter((g) => !g.passed))}`);
      assert.ok(trial.graders.length >= 2, `${t.taskId} has several graders`);
      assert.equal(trial.score, 1);
    }
    assert.deepEqual([t.passAt1, t.passPowK, t.meanScore], [1, 1, 1]);
  }
  assert.deepEqual([report.passAt1, report.passPowK], [1, 1]);
});

void test('Eval smoke: trials and k are floored and clamped to 1-3, k defaults to trials, wrong types fall back', () => {
  const cases: Array<[unknown, { trials: number; k: number }]> = [
    [undefined, { trials: 1, k: 1 }],
    [{}, { trials: 1, k: 1 }],
    [{ trials: 0 }, { trials: 1, k: 1 }],
    [{ trials: 9 }, { trials: 3, k: 3 }],
    [{ trials: 2.7 }, { trials: 2, k: 2 }],
    [{ trials: -4, k: 0.9 }, { trials: 1, k: 1 }],
    [{ trials: 1, k: 3 }, { trials: 1, k: 3 }],
    [{ trials: 3, k: 2.2 }, { trials: 3, k: 2 }],
    [{ trials: '2', k: true }, { trials: 1, k: 1 }],
    [{ trials: 2, k: 'x' }, { trials: 2, k: 2 }],
    [{ trials: NaN, k: Infinity }, { trials: 1, k: 1 }],
    [[2, 3], { trials: 1, k: 1 }],
    ['trials=2', { trials: 1, k: 1 }],
    [null, { trials: 1, k: 1 }],
  ];
  for (const [input, want] of cases) assert.deepEqual(parseEvalOptions(input), want, JSON.stringify(input));
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), (n) => {
      const c = clampCount(n);
      assert.ok(Number.isInteger(c) && c >= 1 && c <= 3);
      assert.equal(c, Math.min(3, Math.max(1, Math.floor(n))));
    }),
    { verbose: true },
  );
});

void test('Eval smoke: passAt1 is passed over trials, passPowK = passAt1^k, meanScore and macro averages', () => {
  const trial = (passed: boolean, score: number): TrialResult => ({ taskId: 'x', passed, score, graders: [] });
  const a = scoreTask({ id: 'a', suite: 'capability', kind: 'coding' }, [trial(true, 1), trial(false, 0.5), trial(true, 1)], 3);
  assert.equal(a.passAt1, 2 / 3);
  assert.equal(a.passPowK, (2 / 3) ** 3);
  assert.equal(a.meanScore, 2.5 / 3);
  const b = scoreTask({ id: 'b', suite: 'regression', kind: 'research' }, [trial(true, 1), trial(true, 1), trial(true, 1)], 3);
  assert.deepEqual([b.passAt1, b.passPowK, b.meanScore], [1, 1, 1]);
  const suite = scoreSuite([a, b], 3);
  assert.equal(suite.passAt1, (2 / 3 + 1) / 2);
  assert.equal(suite.passPowK, ((2 / 3) ** 3 + 1) / 2);
  assert.equal(suite.k, 3);
});

void test('Eval smoke: runSuite keeps catalogue order and at most `concurrency` trials in flight', async () => {
  const tasks = ['t1', 't2', 't3'].map((id) => defineTask({ id, suite: 'regression', kind: 'coding', proves: id, scenario: () => null, graders: [] }));
  let inFlight = 0;
  let peak = 0;
  let calls = 0;
  const finished: string[] = [];
  const report = await runSuite({
    trials: 9,
    k: 0,
    concurrency: 2,
    tasks,
    runTrial: async (t) => {
      calls++;
      peak = Math.max(peak, ++inFlight);
      // Later tasks finish first (t1 takes more turns of the event loop than
      // the others, no clock involved): the report must still be in catalogue order.
      for (let turn = 0; turn < (t.id === 't1' ? 5 : 1); turn++) await new Promise((r) => setImmediate(r));
      inFlight--;
      finished.push(t.id);
      return { taskId: t.id, passed: t.id !== 't2', score: t.id === 't2' ? 0.5 : 1, graders: [check('g', t.id !== 't2', '')] };
    },
  });
  assert.equal(calls, 9, 'trials clamped to 3 per task');
  assert.equal(peak, 2);
  assert.notDeepEqual(finished, [...finished].sort(), 'precondition: trials did finish out of catalogue order');
  assert.equal(report.k, 1, 'k clamped to 1');
  assert.deepEqual(report.tasks.map((t) => [t.taskId, t.trials.length, t.passAt1]), [['t1', 3, 1], ['t2', 3, 0], ['t3', 3, 1]]);
  assert.equal(report.passAt1, 2 / 3);
});


void test('Eval smoke (issue 16 #2): runSuite hands its signal to each trial and starts none after it fired, even when the trial in flight finishes', async () => {
  const tasks = ['t1', 't2'].map((id) => defineTask({ id, suite: 'regression', kind: 'coding', proves: id, scenario: () => null, graders: [] }));
  const ac = new AbortController();
  const reason = new Error('the client went away');
  const given: Array<AbortSignal | undefined> = [];
  const run = runSuite({
    trials: 3,
    k: 1,
    tasks,
    signal: ac.signal,
    runTrial: async (t, signal) => {
      given.push(signal);
      // The first trial ignores the abort and finishes: the next one must not start.
      ac.abort(reason);
      return { taskId: t.id, passed: true, score: 1, graders: [] };
    },
  });
  await assert.rejects(run, (err) => err === reason);
  assert.deepEqual(given, [ac.signal], 'one trial ran, with the run\'s signal');
});
void test('Eval smoke: a trial runs on its own temporary svc.db, removed afterwards, also when the scenario throws', (t) => {
  const root = tempRoot(t);
  const seen: string[] = [];
  const probe = (throws: boolean) =>
    defineTask({
      id: throws ? 'probe-throws' : 'probe',
      suite: 'regression',
      kind: 'coding',
      proves: 'the trial harness',
      scenario: ({ db, domain }) => {
        seen.push(db.name);
        assert.ok(existsSync(db.name), 'the database exists during the trial');
        assert.equal(domain.board.list().length, 0, 'a fresh database');
        if (throws) throw new Error('scenario blew up');
        return null;
      },
      graders: [() => check('ran', true, '')],
    });

  const ok = runTrial(probe(false), { tmpRoot: root });
  assert.equal(ok.passed, true);
  const bad = runTrial(probe(true), { tmpRoot: root });
  assert.equal(bad.passed, false);
  assert.equal(bad.score, 0);
  assert.deepEqual(bad.graders.map((g) => [g.name, g.detail]), [['scenario', 'scenario threw: scenario blew up']]);
  const real = runTrial(task('handoff-resume'), { tmpRoot: root });
  assert.equal(real.passed, true);

  assert.equal(seen.length, 2);
  assert.notEqual(dirname(seen[0] as string), dirname(seen[1] as string), 'each trial has its own directory');
  for (const path of seen) assert.equal(existsSync(dirname(path)), false, `${path} removed`);
  assert.deepEqual(readdirSync(root), [], 'nothing left behind');
});

/** A board that lets a second claim through: the loser takes the task over instead of getting 409. */
const leakyClaims = (d: Domain): Domain => ({
  ...d,
  board: {
    ...d.board,
    claim(id, agentId) {
      try {
        return d.board.claim(id, agentId);
      } catch (err) {
        if (!(err instanceof DomainError) || err.message !== BOARD_MESSAGES.alreadyClaimed) throw err;
        return d.board.update(id, { assigneeAgentId: agentId });
      }
    },
  },
});

/** A state machine whose table allows todo -> done (it walks through in_progress behind the caller's back). */
const todoToDone = (d: Domain): Domain => ({
  ...d,
  board: {
    ...d.board,
    update(id, patch) {
      const cur = d.board.get(id);
      if (cur?.status === 'todo' && patch.status === 'done') {
        d.board.update(id, { status: 'in_progress', assigneeAgentId: patch.assigneeAgentId ?? cur.assigneeAgentId ?? 'someone' });
      }
      return d.board.update(id, patch);
    },
  },
});

/** A claim that ignores unfinished dependencies (drops them, then claims). */
const ignoresBlockers = (d: Domain): Domain => ({
  ...d,
  board: {
    ...d.board,
    claim(id, agentId) {
      for (const blocker of d.board.openBlockers(id)) d.board.unlinkDependency(id, blocker);
      return d.board.claim(id, agentId);
    },
  },
});

void test('Eval smoke: a board that lets a second claim through fails claim-race-single-winner', (t) => {
  const r = runTrial(task('claim-race-single-winner'), { tmpRoot: tempRoot(t), wrap: leakyClaims });
  assert.equal(r.passed, false);
  assert.deepEqual(failing(r), ['first-claim-wins', 'second-claim-409', 'loser-not-retried']);
  // The same broken claim also fails the handoff, whose first check is that a held task cannot be taken.
  assert.ok(failing(runTrial(task('handoff-resume'), { tmpRoot: tempRoot(t), wrap: leakyClaims })).includes('held-task-not-taken'));
});

void test('Eval smoke: a transition table that allows todo -> done fails state-machine-illegal-jumps', (t) => {
  const r = runTrial(task('state-machine-illegal-jumps'), { tmpRoot: tempRoot(t), wrap: todoToDone });
  assert.equal(r.passed, false);
  const jumps = r.graders.find((g) => g.name === 'illegal-jumps-refused');
  assert.equal(jumps?.passed, false);
  assert.match(jumps?.detail ?? '', /todo -> done refused/);
  assert.ok((jumps?.score ?? 1) < 1 && (jumps?.score ?? 0) > 0, 'partial credit: the other jumps are still refused');
  assert.ok(failing(r).includes('refusals-write-nothing'));
});

void test('Eval smoke: a claim that ignores open blockers fails dependency-gate and research-synthesis', (t) => {
  const dep = runTrial(task('dependency-gate'), { tmpRoot: tempRoot(t), wrap: ignoresBlockers });
  assert.ok(failing(dep).includes('blocked-claim-refused'), JSON.stringify(dep.graders));
  const research = runTrial(task('research-synthesis'), { tmpRoot: tempRoot(t), wrap: ignoresBlockers });
  assert.ok(failing(research).includes('synthesis-waits-for-research'));
});

/** Delegation that forgets the parent link (a plain task for the other agent). */
const unlinkedDelegation = (d: Domain): Domain => ({
  ...d,
  board: {
    ...d.board,
    delegate: (parentId, input) =>
      d.board.create({ title: input.title, teamId: d.board.get(parentId)?.teamId ?? null, assigneeAgentId: input.toAgentId, createdByAgentId: input.fromAgentId }),
  },
});

/** A transition table without the review's reject move (in_review -> in_progress). */
const noRejectMove = (d: Domain): Domain => ({
  ...d,
  board: {
    ...d.board,
    update(id, patch) {
      if (d.board.get(id)?.status === 'in_review' && patch.status === 'in_progress') {
        throw new DomainError('conflict', BOARD_MESSAGES.badMove('in_review', 'in_progress'));
      }
      return d.board.update(id, patch);
    },
  },
});

void test('Eval smoke: delegation without its parent link fails delegated-fan-out; no reject move fails verification-gate', (t) => {
  const fan = runTrial(task('delegated-fan-out'), { tmpRoot: tempRoot(t), wrap: unlinkedDelegation });
  assert.ok(failing(fan).includes('subtasks-linked'), JSON.stringify(fan.graders));
  assert.ok(failing(fan).includes('closed-parent-refuses-delegation'));
  const review = runTrial(task('verification-gate'), { tmpRoot: tempRoot(t), wrap: noRejectMove });
  assert.ok(failing(review).includes('bad-work-sent-back'), JSON.stringify(review.graders));
  assert.ok(failing(review).includes('verified-work-done'));
});

void test('Eval smoke: svc eval exits 0 when every task passes and 1 when one fails', async () => {
  const lines: string[] = [];
  const io = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
  assert.equal(await runEval(io, {}), 0);
  assert.match(lines.at(-1) ?? '', /^ok: every task passed/);
  assert.ok(lines.some((l) => l.startsWith('claim-race-single-winner') && l.includes('regression')));

  lines.length = 0;
  const broken = defineTask({
    id: 'always-fails',
    suite: 'regression',
    kind: 'coding',
    proves: 'nothing',
    scenario: () => null,
    graders: [() => check('never', false, 'by design')],
  });
  assert.equal(await runEval(io, { trials: 2, json: true, tasks: [broken, task('research-trail')] }), 1);
  const report = JSON.parse(lines.join('')) as { tasks: Array<{ taskId: string; passAt1: number }>; k: number };
  assert.deepEqual(report.tasks.map((x) => [x.taskId, x.passAt1]), [['always-fails', 0], ['research-trail', 1]]);
  assert.equal(report.k, 2);
});
