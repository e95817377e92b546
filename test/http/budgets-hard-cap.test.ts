// Issue 31, item 5: the hard cap is a hard cap (docs/budgets.md "Hard cap and
// posture"; spec "Governance" budget routes, "Budget row"). While
// SVC_BUDGET_HARD_CAP_USD_CENTS is set, neither budget route can make the
// global budget for every model a warn row, give it a period, or raise its
// limit plus grace past the hard cap: each is a 400 with `details` that names
// the hard cap, and nothing changes. A row stored otherwise before is
// rewritten at boot. Calls through the model endpoint stop at the hard cap
// after every attempted lift.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BudgetRow } from '../../shared/budgets/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { startFakeModel } from '../helpers/fake-model.ts';
import { removeHome, tempHome } from '../helpers/server.ts';
import { OPENAI_KEY, PRICED_MODEL, completionsBody, post, sseData, type Endpoint } from './model-endpoint-fixture.ts';

const S = 'Governance: budget routes (issue 31, item 5)';
type Details = { formErrors: string[]; fieldErrors: Record<string, string[]> };
type Shown = Pick<BudgetRow, 'id' | 'mode' | 'period' | 'limitUsdCents' | 'graceUsdCents' | 'status' | 'updatedAt'>;

const globalRow = async (app: FastifyInstance): Promise<BudgetRow> => {
  const res = await app.inject('/api/governance/budgets');
  assert.equal(res.statusCode, 200, res.body);
  const row = res.json<BudgetRow[]>().find((r) => r.scope === 'global' && r.model === null);
  assert.ok(row, 'the global budget for every model exists');
  return row;
};
const shown = ({ id, mode, period, limitUsdCents, graceUsdCents, status, updatedAt }: BudgetRow): Shown =>
  ({ id, mode, period, limitUsdCents, graceUsdCents, status, updatedAt });
const upsert = (app: FastifyInstance, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/governance/budgets', payload });
const resume = (app: FastifyInstance, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/governance/budgets/global/all/resume', payload });
const auditCount = ({ runtime }: TestApp) => runtime.deps.db.prepare(`SELECT COUNT(*) FROM governance_audit`).pluck().get() as number;
const posture = async (app: FastifyInstance) =>
  (await app.inject('/api/health')).json<{ config: { budgetPosture: string; budgetHardCapUsdCents: number | null } }>().config;

/** A 400 with the route's error string and exactly these fields named, each message naming the hard cap. */
function assertRefused(res: { statusCode: number; json<T>(): T; body: string }, error: string, fields: string[], cap: string): void {
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json<{ error: string; details: Details }>();
  assert.equal(body.error, error);
  assert.deepEqual(body.details.formErrors, []);
  assert.deepEqual(Object.keys(body.details.fieldErrors).sort(), [...fields].sort());
  for (const f of fields) assert.match(body.details.fieldErrors[f]?.[0] ?? '', new RegExp(`SVC_BUDGET_HARD_CAP_USD_CENTS \\(\\${cap}\\)`), f);
}

void test(`${S}: POST cannot make the global budget a warn row, give it a period or a limit past the hard cap; 400 with details, nothing written`, async (t) => {
  const ta = await buildTestApp(t, { env: { SVC_BUDGET_HARD_CAP_USD_CENTS: '100' } });
  const { app } = ta;
  const before = shown(await globalRow(app));
  assert.deepEqual([before.mode, before.period, before.limitUsdCents], ['cap', 'none', 100]);
  const audits = auditCount(ta);

  assertRefused(await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 100, mode: 'warn' }), 'invalid budget', ['mode'], '$1.00');
  assertRefused(await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 101, mode: 'cap' }), 'invalid budget', ['limitUsdCents'], '$1.00');
  assertRefused(await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 100, mode: 'cap', period: 'daily' }), 'invalid budget', ['period'], '$1.00');
  assertRefused(
    await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 100_000, mode: 'warn', period: 'monthly', model: '' }),
    'invalid budget', ['mode', 'limitUsdCents', 'period'], '$1.00',
  );
  assert.deepEqual(shown(await globalRow(app)), before, 'the row is unchanged');
  assert.equal(auditCount(ta), audits, 'no audit row: nothing changed');

  // What stays allowed: a lower cap, the hard cap itself, and per-model or other scopes' warn rows.
  const lower = await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 40, mode: 'cap' });
  assert.equal(lower.statusCode, 200, lower.body);
  assert.equal(lower.json<BudgetRow>().limitUsdCents, 40);
  const perModel = await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 5000, mode: 'warn', model: 'gpt-4o' });
  assert.equal(perModel.statusCode, 200, perModel.body);
  const health = await posture(app);
  assert.deepEqual([health.budgetPosture, health.budgetHardCapUsdCents], ['hard-cap', 100]);
});

void test(`${S}: resume cannot add grace past the hard cap; 400 "invalid resume" with details.fieldErrors.graceUsdCents; grace that fits is added`, async (t) => {
  const ta = await buildTestApp(t, { env: { SVC_BUDGET_HARD_CAP_USD_CENTS: '100' } });
  const { app } = ta;
  const audits = auditCount(ta);
  const atCap = shown(await globalRow(app));
  const full = await resume(app, { graceUsdCents: 1 });
  assertRefused(full, 'invalid resume', ['graceUsdCents'], '$1.00');
  assert.match(full.json<{ details: Details }>().details.fieldErrors.graceUsdCents?.[0] ?? '', /at most \$0\.00 of grace/);
  assertRefused(await resume(app, { graceUsdCents: 100_000 }), 'invalid resume', ['graceUsdCents'], '$1.00');
  assert.deepEqual(shown(await globalRow(app)), atCap, 'nothing changed');
  assert.equal(auditCount(ta), audits);

  // At 60 cents, 40 cents of grace fit (in two steps); a 41st cent does not.
  assert.equal((await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 60, mode: 'cap' })).statusCode, 200);
  const first = await resume(app, { graceUsdCents: 30 });
  assert.equal(first.statusCode, 200, first.body);
  assert.equal(first.json<BudgetRow>().graceUsdCents, 30);
  const over = await resume(app, { graceUsdCents: 11 });
  assertRefused(over, 'invalid resume', ['graceUsdCents'], '$1.00');
  assert.match(over.json<{ details: Details }>().details.fieldErrors.graceUsdCents?.[0] ?? '', /at most \$0\.10 of grace/);
  const last = await resume(app, { graceUsdCents: 10 });
  assert.equal(last.statusCode, 200, last.body);
  assert.deepEqual([last.json<BudgetRow>().limitUsdCents, last.json<BudgetRow>().graceUsdCents], [60, 40]);
  assert.equal((await resume(app, {})).statusCode, 200, 'a resume without grace is always allowed');
});

void test(`${S}: a restart under a hard cap rewrites a global warn row with a period, a higher limit and grace as a cap within it; the row shown and the row stored agree`, async (t) => {
  const dir = tempHome('svc-hard-cap-');
  t.after(() => removeHome(dir));
  const env = { SVC_DB_PATH: join(dir, 'svc.db') };

  const first = await buildTestApp(t, { env });
  assert.equal((await upsert(first.app, { scope: 'global', scopeId: 'all', limitUsdCents: 500, mode: 'warn', period: 'monthly' })).statusCode, 200);
  assert.equal((await resume(first.app, { graceUsdCents: 300 })).statusCode, 200);
  first.runtime.deps.budgets.ledger.recordSpend({ agentId: 'a', teamId: null, taskId: null, model: PRICED_MODEL }, 0.02);
  const was = await globalRow(first.app);
  assert.deepEqual([was.mode, was.period, was.limitUsdCents, was.graceUsdCents, was.spentUsdCents], ['warn', 'monthly', 500, 300, 2]);
  await first.app.close();
  await first.runtime.close();

  const second = await buildTestApp(t, { env: { ...env, SVC_BUDGET_HARD_CAP_USD_CENTS: '100' } });
  const now = await globalRow(second.app);
  assert.equal(now.id, was.id, 'the same row, rewritten');
  assert.deepEqual(
    [now.mode, now.period, now.periodStartedAt, now.limitUsdCents, now.graceUsdCents, now.spentUsdCents, now.status],
    ['cap', 'none', null, 100, 0, 2, 'active'],
  );
  const stored = second.runtime.deps.db
    .prepare(`SELECT mode, period, limit_usd_cents AS limitUsdCents, grace_usd_cents AS graceUsdCents FROM budgets WHERE id = ?`)
    .get(was.id);
  assert.deepEqual(stored, { mode: 'cap', period: 'none', limitUsdCents: 100, graceUsdCents: 0 }, 'the database says what the route shows');
  const audit = second.runtime.deps.db.prepare(`SELECT summary FROM governance_audit WHERE kind = 'budget' ORDER BY seq DESC LIMIT 1`).pluck().get();
  assert.equal(audit, 'budget global set from SVC_BUDGET_HARD_CAP_USD_CENTS: cap at $1.00 (was warn at $5.00 (monthly) with $3.00 grace), status active');
  assert.equal((await posture(second.app)).budgetPosture, 'hard-cap');
});

/** The real app with the hard cap, listening, with alice routed to a fake OpenAI upstream (as model-endpoint-fixture.ts does). */
async function endpointWithHardCap(t: TestContext, cents: number) {
  const built = await buildTestApp(t, { env: { SVC_BUDGET_HARD_CAP_USD_CENTS: String(cents) } });
  const openai = await startFakeModel();
  t.after(() => openai.close());
  const { deps } = built.runtime;
  deps.vault.set('OPENAI_API_KEY', OPENAI_KEY);
  deps.modelRouting.registry.write({
    agents: { alice: { upstream: 'fake' } },
    upstreams: { fake: { api: 'openai-completions', baseUrl: openai.url, keyName: 'OPENAI_API_KEY', headers: {} } },
  });
  const token = deps.agentTokens.mint('model', { agentId: 'alice' }).token;
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = built.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const e = { ...built, base: `http://127.0.0.1:${port}` } as unknown as Endpoint;
  return { e, app: built.app, openai, token };
}

const textOf = async (res: Response) =>
  sseData(await res.text()).map((d) => ((d.choices as Array<{ delta?: { content?: string } }>)?.[0]?.delta?.content ?? '')).join('');

void test(`${S}: after every attempted lift, calls through the model endpoint stop at the hard cap and total spend stays under it`, async (t) => {
  // 5 cents: a call asking for 100k output tokens of gpt-4o-mini is estimated at 6 cents, past it.
  const { e, app, openai, token } = await endpointWithHardCap(t, 5);
  const COMPLETIONS = '/model/alice/v1/chat/completions';
  const small = await post(e, COMPLETIONS, token, completionsBody('fits', { max_tokens: 1000 }));
  assert.equal(await textOf(small), 'ECHO: fits');

  assert.equal((await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 5, mode: 'warn' })).statusCode, 400);
  assert.equal((await upsert(app, { scope: 'global', scopeId: 'all', limitUsdCents: 200, mode: 'cap' })).statusCode, 400);
  assert.equal((await resume(app, { graceUsdCents: 195 })).statusCode, 400);

  const calledBefore = openai.requests.length;
  const big = await post(e, COMPLETIONS, token, completionsBody('too much', { max_tokens: 100_000 }));
  assert.equal(big.status, 200);
  assert.equal(await textOf(big), 'svc stopped this call: the global budget reached its cap of $0.05. Resume it in svc to continue.');
  // Resumed without grace (allowed), the same call is refused again: the hard cap still binds.
  assert.equal((await resume(app, {})).statusCode, 200);
  const again = await post(e, COMPLETIONS, token, completionsBody('too much again', { max_tokens: 100_000, stream: false }));
  const json = (await again.json()) as { choices: Array<{ message: { content: string } }> };
  assert.match(json.choices[0]?.message.content ?? '', /global budget reached its cap of \$0\.05/);
  assert.equal(openai.requests.length, calledBefore, 'the provider got neither refused call');

  const g = await globalRow(app);
  assert.deepEqual([g.mode, g.limitUsdCents, g.graceUsdCents, g.status], ['cap', 5, 0, 'paused']);
  const spent = e.runtime.deps.db.prepare(`SELECT COALESCE(SUM(cost_usd), 0) FROM cost_records`).pluck().get() as number;
  assert.ok(spent > 0 && spent <= 0.05, `every call's cost together (${spent}) stays under the hard cap`);
  assert.ok(g.spentUsd + g.reservedUsdCents / 100 <= 0.05);
  assert.equal((await posture(app)).budgetPosture, 'hard-cap');
});
