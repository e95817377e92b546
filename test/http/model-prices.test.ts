// Issue 30 item 4 and issue 31 item 1 through the real app: a model call is
// priced at what the operator set in svc (GET/PUT
// /api/governance/model-prices) or configured in the gateway, else at the
// price library's list price. The supervisor publishes the prices
// of a gateway config (the gateway reconciler's refresh(config), or the
// config file at start); the model endpoint prices its estimate, its
// settlement and its cost record as `<upstream>/<model>`, and the
// cost-records route prices what it records the same way.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildTestApp } from '../helpers/app.ts';
import { removeHome, tempHome } from '../helpers/server.ts';
import { budgetsOf, callsOf, completionsBody, createBudget, post, PRICED_MODEL, startEndpoint } from './model-endpoint-fixture.ts';

const cost = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0 });
const entry = (id: string, c?: ReturnType<typeof cost>) => ({ id, name: id, ...(c ? { cost: c } : {}) });

void test('Pricing (issue 30 #4): the model endpoint reserves, settles and records a call at the price the gateway\'s config gives <upstream>/<model>, not at its svc-<agent> copy', async (t) => {
  const e = await startEndpoint(t);
  // As a gateway routed by svc has it: the upstream `fake` priced 2 / 4, and svc's per-agent copy of it.
  e.runtime.deps.gatewayPrices.refresh({
    models: { providers: { fake: { models: [entry(PRICED_MODEL, cost(2, 4))] }, 'svc-alice': { models: [entry(PRICED_MODEL, cost(0, 0))] } } },
  });
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 500, mode: 'cap' });
  const body = completionsBody('hello configured price', { stream: false, max_tokens: 100 });
  const res = await post(e, '/model/alice/v1/chat/completions', e.tokens.alice, body);
  assert.equal(res.status, 200);
  await res.json();
  const [call] = await callsOf(e, '?agentId=alice');
  assert.ok(call);
  const bytes = Buffer.byteLength(JSON.stringify(body));
  assert.equal(call.estimateUsd, (Math.ceil(bytes / 3) * 2 + 100 * 4) / 1e6, 'the estimate: bytes / 3 in, max_tokens out, at 2 / 4');
  assert.equal(call.costUsd, ((call.inputTokens as number) * 2 + (call.outputTokens as number) * 4) / 1e6);
  const records = e.runtime.deps.db.prepare('SELECT model, cost_usd AS usd FROM cost_records').all();
  assert.deepEqual(records, [{ model: `fake/${PRICED_MODEL}`, usd: call.costUsd }]);
  const [after] = (await budgetsOf(e)).filter((b) => b.id === budget.id);
  assert.equal(after?.spentUsd, Math.ceil((call.costUsd as number) * 1e6) / 1e6);
});

void test('Pricing (issue 30 #4): a model the gateway configures at zero costs nothing at the endpoint; without its cost entry it is priced by the price library', async (t) => {
  const e = await startEndpoint(t);
  e.runtime.deps.gatewayPrices.refresh({ models: { providers: { fake: { models: [entry(PRICED_MODEL, cost(0, 0))] } } } });
  const first = await post(e, '/model/alice/v1/chat/completions', e.tokens.alice, completionsBody('free', { stream: false }));
  await first.json();
  const [free] = await callsOf(e, '?agentId=alice');
  assert.deepEqual([free?.estimateUsd, free?.costUsd], [0, 0]);
  e.runtime.deps.gatewayPrices.refresh({ models: { providers: { fake: { models: [entry(PRICED_MODEL)] } } } });
  const second = await post(e, '/model/alice/v1/chat/completions', e.tokens.alice, completionsBody('priced', { stream: false }));
  await second.json();
  const priced = (await callsOf(e, '?agentId=alice')).find((c) => c.id !== free?.id);
  assert.ok(priced);
  // gpt-4o-mini in the price library: 0.15 / 0.6 per million (the fake upstream reports no cached tokens).
  assert.equal(priced.costUsd, ((priced.inputTokens as number) * 0.15 + (priced.outputTokens as number) * 0.6) / 1e6);
});

void test('Pricing (issue 30 #4): POST /api/cost-records prices at the configured price; fake-model unconfigured is not free', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const record = async (model: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/cost-records', payload: { agentId: 'a', model, inputTokens: 1_000_000, outputTokens: 1_000_000 } });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { costUsd: number }).costUsd;
  };
  assert.equal(await record('fakellm/fake-model'), 18, 'unconfigured: 3 + 15');
  runtime.deps.gatewayPrices.refresh({ models: { providers: { fakellm: { models: [entry('fake-model', cost(1, 2)), entry('free-model', cost(0, 0))] } } } });
  assert.equal(await record('fakellm/fake-model'), 3);
  assert.equal(await record('fake-model'), 3, 'without its provider: the one provider that configures it');
  assert.equal(await record('fakellm/free-model'), 0);
});

void test('Pricing (issue 30 #4): at start, svc publishes the prices of the gateway\'s config file', async (t) => {
  const stateDir = tempHome('svc-prices-gateway-');
  t.after(() => removeHome(stateDir));
  writeFileSync(join(stateDir, 'openclaw.json'), JSON.stringify({ models: { providers: { acme: { models: [entry('house-model', cost(4, 8))] } } } }));
  const { app } = await buildTestApp(t, { env: { OPENCLAW_STATE_DIR: stateDir } });
  const res = await app.inject({ method: 'POST', url: '/api/cost-records', payload: { agentId: 'a', model: 'acme/house-model', inputTokens: 1_000_000, outputTokens: 1_000_000 } });
  assert.equal((res.json() as { costUsd: number }).costUsd, 12);
});

void test('Model prices (issue 31 #1): PUT /api/governance/model-prices sets prices svc prices by first; GET reads them back', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const get = async () => (await app.inject({ method: 'GET', url: '/api/governance/model-prices' })).json() as unknown;
  const record = async (model: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/cost-records', payload: { agentId: 'a', model, inputTokens: 1_000_000, outputTokens: 1_000_000 } });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { costUsd: number }).costUsd;
  };
  assert.deepEqual(await get(), {});
  runtime.deps.gatewayPrices.refresh({ models: { providers: { fakellm: { models: [entry('fake-1', cost(1, 2))] } } } });
  assert.equal(await record('fakellm/fake-1'), 3, 'the gateway config\'s price');
  assert.equal(await record('openai/gpt-4o-2024-08-06'), 12.5, 'the library: 2.5 + 10');

  const put = await app.inject({
    method: 'PUT', url: '/api/governance/model-prices',
    payload: { 'FakeLLM/fake-1': { input: 5, output: 5 }, 'gpt-4o': { input: 1, output: 1, cacheRead: 0.5 } },
  });
  assert.equal(put.statusCode, 200, put.body);
  const stored = { 'fakellm/fake-1': { input: 5, output: 5 }, 'gpt-4o': { input: 1, output: 1, cacheRead: 0.5 } };
  assert.deepEqual(put.json(), stored);
  assert.deepEqual(await get(), stored);
  assert.equal(await record('fakellm/fake-1'), 10, 'svc\'s price over the gateway config\'s');
  assert.equal(await record('openai/gpt-4o-2024-08-06'), 2, 'a family price set in svc prices its snapshots');

  const clear = await app.inject({ method: 'PUT', url: '/api/governance/model-prices', payload: {} });
  assert.deepEqual(clear.json(), {});
  assert.equal(await record('fakellm/fake-1'), 3);
});

void test('Model prices (issue 31 #1): bad input is a 400 with details naming each model, and changes nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const put = (payload: string) => app.inject({ method: 'PUT', url: '/api/governance/model-prices', headers: { 'content-type': 'application/json' }, payload });
  assert.equal((await put('{"m":{"input":1,"output":1}}')).statusCode, 200);
  const cases: Array<[string, string[]]> = [
    ['{"a/b":{"input":-1,"output":2},"c":{"input":1}}', ['a/b', 'c']],
    ['{"d":{"input":1,"output":1,"currency":"EUR"}}', ['d']],
    ['{"e f":{"input":1,"output":1}}', ['e f']],
    ['{"x":"free"}', ['x']],
    ['{"GPT-4o":{"input":1,"output":1},"gpt-4o":{"input":2,"output":2}}', ['gpt-4o']],
  ];
  for (const [body, fields] of cases) {
    const res = await put(body);
    assert.equal(res.statusCode, 400, body);
    const json = res.json() as { error: string; details: { fieldErrors: Record<string, string[]> } };
    assert.equal(json.error, 'invalid model prices');
    assert.deepEqual(Object.keys(json.details.fieldErrors).sort(), fields, body);
  }
  for (const body of ['[]', '"x"', 'not json']) assert.equal((await put(body)).statusCode, 400, body);
  const after = await app.inject({ method: 'GET', url: '/api/governance/model-prices' });
  assert.deepEqual(after.json(), { m: { input: 1, output: 1 } }, 'nothing changed');
});
