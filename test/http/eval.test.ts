// Spec "Observability": POST /api/eval/smoke through the real app, with the
// trials run in the real piscina pool (tsx bootstrap under test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { EVAL_KINDS, EVAL_SUITES, EVAL_TASKS } from '../../shared/eval/index.ts';
import { buildApp } from '../../supervisor/http/app.ts';
import { buildTestApp } from '../helpers/app.ts';

interface Report {
  tasks: Array<{
    taskId: string;
    suite: string;
    kind: string;
    trials: Array<{ taskId: string; passed: boolean; score: number; graders: Array<Record<string, unknown>> }>;
    passAt1: number;
    passPowK: number;
    meanScore: number;
  }>;
  passAt1: number;
  passPowK: number;
  k: number;
}

async function smoke(app: FastifyInstance, payload?: unknown): Promise<Report> {
  const res = await app.inject({ method: 'POST', url: '/api/eval/smoke', ...(payload === undefined ? {} : { payload: payload as object }) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Report>();
}

const shape = (r: Report) => ({ trials: r.tasks.map((t) => t.trials.length), k: r.k });
const every = (n: number) => EVAL_TASKS.map(() => n);

void test('Observability: POST /api/eval/smoke runs every task with the defaults and answers the spec shape', async (t) => {
  const { app } = await buildTestApp(t);
  const r = await smoke(app, {});
  assert.deepEqual(Object.keys(r).sort(), ['k', 'passAt1', 'passPowK', 'tasks']);
  assert.deepEqual(shape(r), { trials: every(1), k: 1 });
  assert.deepEqual(r.tasks.map((x) => x.taskId), EVAL_TASKS.map((x) => x.id));
  for (const task of r.tasks) {
    assert.deepEqual(Object.keys(task).sort(), ['kind', 'meanScore', 'passAt1', 'passPowK', 'suite', 'taskId', 'trials']);
    assert.ok((EVAL_SUITES as readonly string[]).includes(task.suite));
    assert.ok((EVAL_KINDS as readonly string[]).includes(task.kind));
    for (const trial of task.trials) {
      assert.deepEqual(Object.keys(trial).sort(), ['graders', 'passed', 'score', 'taskId']);
      assert.equal(trial.taskId, task.taskId);
      assert.equal(trial.passed, true, JSON.stringify(trial.graders));
      for (const g of trial.graders) assert.deepEqual(Object.keys(g).sort(), ['detail', 'name', 'passed', 'score']);
    }
    assert.deepEqual([task.passAt1, task.passPowK, task.meanScore], [1, 1, 1]);
  }
  assert.deepEqual([r.passAt1, r.passPowK], [1, 1]);
  for (const suite of EVAL_SUITES) assert.ok(r.tasks.some((x) => x.suite === suite));
  for (const kind of EVAL_KINDS) assert.ok(r.tasks.some((x) => x.kind === kind));

  // No body at all is the same as {}.
  assert.deepEqual(shape(await smoke(app)), { trials: every(1), k: 1 });
});

void test('Observability: POST /api/eval/smoke floors and clamps trials and k to 1-3; k defaults to trials', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(shape(await smoke(app, { trials: 0 })), { trials: every(1), k: 1 });
  assert.deepEqual(shape(await smoke(app, { trials: 2.7 })), { trials: every(2), k: 2 });
  const nine = await smoke(app, { trials: 9 });
  assert.deepEqual(shape(nine), { trials: every(3), k: 3 });
  assert.ok(nine.tasks.every((x) => x.trials.every((tr) => tr.passed)));
  const k = await smoke(app, { trials: 1, k: 9 });
  assert.deepEqual(shape(k), { trials: every(1), k: 3 });
  assert.ok(k.tasks.every((x) => x.passPowK === x.passAt1 ** 3));
  assert.deepEqual(shape(await smoke(app, { trials: 3, k: 0 })), { trials: every(3), k: 1 });
});

void test('Observability: POST /api/eval/smoke wrong-typed fields and non-object bodies fall back to the defaults', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(shape(await smoke(app, { trials: '3', k: true })), { trials: every(1), k: 1 });
  assert.deepEqual(shape(await smoke(app, { trials: 2, k: 'all' })), { trials: every(2), k: 2 });
  assert.deepEqual(shape(await smoke(app, [3])), { trials: every(1), k: 1 });
  assert.deepEqual(shape(await smoke(app, { trials: null, k: { n: 2 } })), { trials: every(1), k: 1 });
});

void test('Observability: POST /api/eval/smoke answers 500 with a redacted error when a trial cannot run', async (t) => {
  const { runtime, logs } = await buildTestApp(t);
  const secret = 'sk-abcdefghijklmnopqrstuvwx';
  const app = buildApp({
    ...runtime.deps,
    pool: {
      ...runtime.deps.pool,
      size: 2,
      evalTrial: () => Promise.reject(new Error(`pool thread died holding ${secret}`)),
    },
  });
  t.after(() => app.close());
  await app.ready();
  const res = await app.inject({ method: 'POST', url: '/api/eval/smoke', payload: { trials: 2 } });
  assert.equal(res.statusCode, 500);
  const body = res.json<{ error: string }>();
  assert.deepEqual(Object.keys(body), ['error']);
  assert.match(body.error, /pool thread died/);
  assert.ok(!body.error.includes(secret), 'the secret is masked');
  assert.ok(logs.some((l) => l.includes('unhandled error') && l.includes('/api/eval/smoke')), 'the one error handler logs it');
});
