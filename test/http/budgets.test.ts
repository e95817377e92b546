// Issue 22, item 6: the Governance budget routes on the real app (spec
// "Budget row", "Budget status", GET/POST /api/governance/budgets, POST
// .../:scope/:scopeId/resume), the fleet summary's budget counts and the
// health report's budget config. Every 400 carries flattened `details` and
// writes nothing; a target svc does not know is a 400 too (docs/budgets.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { BudgetRow, CallScope } from '../../shared/budgets/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { untilClockPasses } from '../helpers/wait.ts';

const S = 'Budgets (issue 22, item 6)';
type Details = { formErrors: string[]; fieldErrors: Record<string, string[]> };

async function list(app: FastifyInstance): Promise<BudgetRow[]> {
  const res = await app.inject('/api/governance/budgets');
  assert.equal(res.statusCode, 200, res.body);
  return res.json<BudgetRow[]>();
}

async function post(app: FastifyInstance, payload: unknown) {
  return app.inject({ method: 'POST', url: '/api/governance/budgets', payload: payload as object });
}

async function upsert(app: FastifyInstance, payload: Record<string, unknown>): Promise<BudgetRow> {
  const res = await post(app, payload);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<BudgetRow>();
}

const resume = (app: FastifyInstance, scope: string, scopeId: string, payload?: unknown) =>
  app.inject({ method: 'POST', url: `/api/governance/budgets/${scope}/${scopeId}/resume`, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A team, an agent and a task svc knows. */
function targets({ runtime }: TestApp) {
  const { domain } = runtime.deps;
  const team = domain.teams.create({ name: 'ops', icon: 'i', color: 'c' });
  const agent = domain.agents.create({ id: 'researcher', name: 'Researcher', teamId: team.id });
  const task = domain.board.create({ title: 'T', teamId: team.id });
  const call: CallScope = { agentId: agent.id, teamId: team.id, taskId: task.id, model: 'gpt-4o' };
  return { team, agent, task, call };
}

const auditCount = ({ runtime }: TestApp) => runtime.deps.db.prepare(`SELECT COUNT(*) FROM governance_audit`).pluck().get() as number;

void test(`${S}: POST creates a row (spent 0, active) with every field; GET lists rows newest-updated first`, async (t) => {
  const ta = await buildTestApp(t);
  const { app } = ta;
  const { team, agent } = targets(ta);
  assert.deepEqual(await list(app), []);
  const g = await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 5000, mode: 'warn', period: 'monthly' });
  assert.deepEqual(Object.keys(g).sort(), [
    'createdAt', 'graceUsdCents', 'id', 'label', 'limitUsdCents', 'mode', 'model', 'period', 'periodStartedAt', 'reservedUsdCents',
    'scope', 'scopeId', 'spentUsd', 'spentUsdCents', 'status', 'updatedAt', 'warnedPct',
  ]);
  assert.deepEqual(
    { ...g, id: '', createdAt: '', updatedAt: '', periodStartedAt: '' },
    {
      id: '', scope: 'global', scopeId: 'all', model: null, label: 'global', mode: 'warn', period: 'monthly', limitUsdCents: 5000,
      spentUsdCents: 0, spentUsd: 0, reservedUsdCents: 0, graceUsdCents: 0, status: 'active', warnedPct: 0,
      periodStartedAt: '', createdAt: '', updatedAt: '',
    },
  );
  const now = new Date();
  assert.equal(g.periodStartedAt, new Date(now.getFullYear(), now.getMonth(), 1).toISOString(), 'a monthly period starts on the 1st, local time');
  await untilClockPasses();
  const tm = await upsert(app, { scope: 'team', scopeId: team.id, limitUsdCents: 100, mode: 'cap' });
  assert.deepEqual([tm.period, tm.periodStartedAt, tm.label], ['none', null, 'team “ops”']);
  await untilClockPasses();
  const ag = await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 100, mode: 'cap', model: 'OpenAI/GPT-4o' });
  assert.deepEqual([ag.model, ag.label], ['gpt-4o', 'agent researcher for gpt-4o']);
  assert.deepEqual((await list(app)).map((r) => r.id), [ag.id, tm.id, g.id]);
  await untilClockPasses();
  const again = await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 6000, mode: 'warn', period: 'monthly' });
  assert.equal(again.id, g.id, 'the same (scope, scopeId, model) is the same row');
  assert.deepEqual((await list(app)).map((r) => r.id), [g.id, ag.id, tm.id], 'an update moves the row first');
  const audit = await app.inject('/api/governance/audit?kind=budget');
  assert.deepEqual(
    audit.json<Array<{ summary: string }>>().map((r) => r.summary).at(0),
    'budget global set: warn at $60.00 (monthly), status active',
  );
});

void test(`${S}: re-setting a limit recomputes status from spend: raising a cap above spend un-pauses, lowering it pauses, warn soft-caps`, async (t) => {
  const ta = await buildTestApp(t);
  const { app, runtime } = ta;
  const { agent, call } = targets(ta);
  await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 100, mode: 'cap' });
  runtime.deps.budgets.ledger.recordSpend(call, 1.5);
  const [paused] = await list(app);
  assert.deepEqual([paused?.status, paused?.spentUsdCents, paused?.spentUsd], ['paused', 150, 1.5]);
  assert.equal((await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 200, mode: 'cap' })).status, 'active');
  assert.equal((await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 150, mode: 'cap' })).status, 'paused', 'spend at the limit');
  const warn = await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 150, mode: 'warn' });
  assert.deepEqual([warn.status, warn.warnedPct], ['soft_capped', 100]);
  const warn80 = await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 180, mode: 'warn' });
  assert.deepEqual([warn80.status, warn80.warnedPct], ['active', 80]);
  assert.equal((await list(app)).length, 1);
});

void test(`${S}: every invalid POST is a 400 with flattened details, and nothing is written`, async (t) => {
  const ta = await buildTestApp(t);
  const { app } = ta;
  const { team } = targets(ta);
  const ok = { scope: 'team', scopeId: team.id, limitUsdCents: 100, mode: 'cap' };
  await upsert(app, ok);
  const before = await list(app);
  const audits = auditCount(ta);
  const cases: Array<[string, unknown, string]> = [
    ['limit 0', { ...ok, limitUsdCents: 0 }, 'limitUsdCents'],
    ['negative limit', { ...ok, limitUsdCents: -5 }, 'limitUsdCents'],
    ['non-integer limit', { ...ok, limitUsdCents: 1.5 }, 'limitUsdCents'],
    ['limit as a string', { ...ok, limitUsdCents: '100' }, 'limitUsdCents'],
    ['limit too large', { ...ok, limitUsdCents: 100_000_001 }, 'limitUsdCents'],
    ['no limit', { scope: 'team', scopeId: team.id, mode: 'cap' }, 'limitUsdCents'],
    ['bad scope', { ...ok, scope: 'galaxy' }, 'scope'],
    ['bad mode', { ...ok, mode: 'stop' }, 'mode'],
    ['bad period', { ...ok, period: 'weekly' }, 'period'],
    ['empty scopeId', { ...ok, scopeId: '' }, 'scopeId'],
    ['global scopeId not all', { ...ok, scope: 'global', scopeId: 'everything' }, 'scopeId'],
  ];
  for (const [what, payload, field] of cases) {
    const res = await post(app, payload);
    assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
    const body = res.json<{ error: string; details: Details }>();
    assert.equal(body.error, 'invalid budget', what);
    assert.ok(Array.isArray(body.details.formErrors), what);
    assert.ok((body.details.fieldErrors[field]?.length ?? 0) > 0, `${what}: ${res.body}`);
  }
  const unknown: Array<[string, string]> = [
    ['team', 'no such team'],
    ['agent', 'no such agent'],
    ['task', 'no such task'],
  ];
  for (const [scope, message] of unknown) {
    const res = await post(app, { ...ok, scope, scopeId: 'nobody-knows-this' });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), { error: 'invalid budget', details: { formErrors: [], fieldErrors: { scopeId: [message] } } });
  }
  for (const raw of ['[1]', '"x"', '{bad json']) {
    const res = await app.inject({ method: 'POST', url: '/api/governance/budgets', headers: { 'content-type': 'application/json' }, payload: raw });
    assert.equal(res.statusCode, 400, raw);
    assert.equal(res.json<{ error: string }>().error, 'invalid budget');
  }
  assert.deepEqual(await list(app), before);
  assert.equal(auditCount(ta), audits, 'no audit row either');
  for (const method of ['DELETE', 'PUT', 'PATCH'] as const) {
    assert.equal((await app.inject({ method, url: '/api/governance/budgets' })).statusCode, 404, `${method}: there is no delete route`);
  }
});

void test(`${S}: resume: unknown scope 400, no row 404, bad body 400; willRepause with and without grace; grace raises the cap`, async (t) => {
  const ta = await buildTestApp(t);
  const { app, runtime } = ta;
  const { agent, call } = targets(ta);
  const bogus = await resume(app, 'galaxy', 'x');
  assert.equal(bogus.statusCode, 400);
  assert.deepEqual(bogus.json(), { error: 'unknown budget scope: galaxy' });
  const missing = await resume(app, 'agent', agent.id);
  assert.equal(missing.statusCode, 404);
  assert.deepEqual(missing.json(), { error: 'budget not found' });
  await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 100, mode: 'cap' });
  for (const payload of [{ graceUsdCents: 0 }, { graceUsdCents: -1 }, { graceUsdCents: 2.5 }, { graceUsdCents: 'ten' }]) {
    const res = await resume(app, 'agent', agent.id, payload);
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    const body = res.json<{ error: string; details: Details }>();
    assert.equal(body.error, 'invalid resume');
    assert.ok(body.details.fieldErrors.graceUsdCents?.length, res.body);
  }
  assert.equal((await list(app))[0]?.graceUsdCents, 0, 'a refused resume changed nothing');

  runtime.deps.budgets.ledger.recordSpend(call, 1.2);
  assert.equal((await list(app))[0]?.status, 'paused');
  const plain = await resume(app, 'agent', agent.id);
  assert.equal(plain.statusCode, 200, plain.body);
  assert.deepEqual(
    (({ status, willRepause, graceUsdCents }) => ({ status, willRepause, graceUsdCents }))(plain.json<BudgetRow & { willRepause: boolean }>()),
    { status: 'active', willRepause: true, graceUsdCents: 0 },
  );
  const refused = runtime.deps.budgets.ledger.reserve('next-call', call, 0.01);
  assert.equal(refused.ok, false, 'without grace the next call pauses it again');
  const graced = await resume(app, 'agent', agent.id, { graceUsdCents: 50 });
  assert.equal(graced.statusCode, 200, graced.body);
  assert.deepEqual(
    (({ status, willRepause, graceUsdCents }) => ({ status, willRepause, graceUsdCents }))(graced.json<BudgetRow & { willRepause: boolean }>()),
    { status: 'active', willRepause: false, graceUsdCents: 50 },
  );
  assert.ok(runtime.deps.budgets.ledger.reserve('after-grace', call, 0.1).ok, 'the grace lets the next call through');
  // A per-model row is resumed by naming its model.
  await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 10, mode: 'cap', model: 'gpt-4o' });
  assert.equal((await resume(app, 'agent', agent.id, { model: 'gpt-4o' })).statusCode, 200);
  assert.equal((await resume(app, 'agent', agent.id, { model: 'claude-haiku-4-5' })).statusCode, 404);
});

void test(`${S}: the fleet summary counts budget rows by status`, async (t) => {
  const ta = await buildTestApp(t);
  const { app, runtime } = ta;
  const { team, agent, task, call } = targets(ta);
  const counts = async () => (await app.inject('/api/fleet/summary')).json<{ budgets: unknown }>().budgets;
  assert.deepEqual(await counts(), { available: true, total: 0, byStatus: { active: 0, paused: 0, soft_capped: 0 } });
  await upsert(app, { scope: 'team', scopeId: team.id, limitUsdCents: 100, mode: 'warn' });
  await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 100, mode: 'cap' });
  await upsert(app, { scope: 'task', scopeId: task.id, limitUsdCents: 10_000, mode: 'cap' });
  runtime.deps.budgets.ledger.recordSpend(call, 1);
  assert.deepEqual(await counts(), { available: true, total: 3, byStatus: { active: 1, paused: 1, soft_capped: 1 } });
});

void test(`${S}: the fleet summary counts a daily budget paused in an earlier period as active, as a read of it then shows`, async (t) => {
  const ta = await buildTestApp(t);
  const { app, runtime } = ta;
  const { agent, call } = targets(ta);
  const counts = async () => (await app.inject('/api/fleet/summary')).json<{ budgets: { byStatus: unknown } }>().budgets.byStatus;
  const daily = await upsert(app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 100, mode: 'cap', period: 'daily' });
  await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 100, mode: 'cap' });
  runtime.deps.budgets.ledger.recordSpend(call, 1);
  assert.deepEqual(await counts(), { active: 0, paused: 2, soft_capped: 0 });
  // The daily row's period began yesterday: its reset is due, though nothing has touched it yet.
  runtime.deps.db.prepare('UPDATE budgets SET period_start = period_start - 86400000 WHERE id = ?').run(daily.id);
  assert.deepEqual(await counts(), { active: 1, paused: 1, soft_capped: 0 });
  const rows = (await app.inject('/api/governance/budgets')).json<BudgetRow[]>();
  assert.deepEqual(rows.map((r) => [r.scope, r.status]).sort(), [['agent', 'active'], ['global', 'paused']]);
  assert.deepEqual(await counts(), { active: 1, paused: 1, soft_capped: 0 });
});

void test(`${S}: the health report's config shows the real budget posture, hard cap and warn threshold`, async (t) => {
  const health = async (app: FastifyInstance) => (await app.inject('/api/health')).json<{ config: Record<string, unknown> }>().config;
  const plain = await buildTestApp(t);
  const { agent } = targets(plain);
  assert.deepEqual(
    (({ budgetPosture, budgetHardCapUsdCents, budgetWarnSoftPct }) => ({ budgetPosture, budgetHardCapUsdCents, budgetWarnSoftPct }))(await health(plain.app)),
    { budgetPosture: 'track-and-warn', budgetHardCapUsdCents: null, budgetWarnSoftPct: 80 },
  );
  await upsert(plain.app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 100, mode: 'warn' });
  assert.equal((await health(plain.app)).budgetPosture, 'track-and-warn', 'warn budgets only track');
  await upsert(plain.app, { scope: 'agent', scopeId: agent.id, limitUsdCents: 100, mode: 'cap', model: 'gpt-4o' });
  assert.equal((await health(plain.app)).budgetPosture, 'enforce', 'a cap budget enforces');

  const capped = await buildTestApp(t, { env: { SVC_BUDGET_HARD_CAP_USD_CENTS: '2500', SVC_BUDGET_WARN_PCT: '70' } });
  assert.deepEqual(
    (({ budgetPosture, budgetHardCapUsdCents, budgetWarnSoftPct }) => ({ budgetPosture, budgetHardCapUsdCents, budgetWarnSoftPct }))(await health(capped.app)),
    { budgetPosture: 'hard-cap', budgetHardCapUsdCents: 2500, budgetWarnSoftPct: 70 },
  );
  const rows = await list(capped.app);
  assert.deepEqual(rows.map((r) => [r.scope, r.scopeId, r.model, r.mode, r.limitUsdCents]), [['global', 'all', null, 'cap', 2500]], 'the hard cap is a global cap row from boot');
});
