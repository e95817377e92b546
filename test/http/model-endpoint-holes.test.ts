// Issue 31: the endpoint against a caller that writes its own requests (any
// agent with a shell can read its model token). Each test is one of the
// holes measured on the earlier build: the caller must not choose its bill,
// a hung-up client is charged what the provider billed, text in the body
// names no budget, and a model's dated names count under its family's cap.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { INLINE_BODY_BYTES } from '../../shared/model-proxy/request-facts.ts';
import { createExecutions } from '../../shared/team-chat/runs/executions.ts';
import { BILLED_COMPLETION_TOKENS, BILLED_PROMPT_TOKENS, startBillingUpstream } from '../helpers/billing-upstream.ts';
import { createTeam } from '../helpers/team-chat-api.ts';
import { waitFor } from '../helpers/wait.ts';
import { PRICED_MODEL, budgetsOf, callsOf, completionsBody, createBudget, post, startEndpoint, type Endpoint } from './model-endpoint-fixture.ts';

const COMPLETIONS = '/model/alice/v1/chat/completions';
const RESPONSES = '/model/carol/v1/responses';

/** alice's provider entry lists these (as the routing sync writes them). */
const ALICE_MODELS = [PRICED_MODEL, 'gpt-4o'];

function listModels(e: Endpoint, upstreams: Record<string, { api: 'openai-completions' | 'anthropic-messages' | 'openai-responses'; baseUrl: string }> = {}): void {
  const registry = e.runtime.deps.modelRouting.registry;
  const now = registry.read();
  registry.write({
    agents: { ...now.agents, alice: { upstream: now.agents.alice?.upstream ?? 'fake', models: ALICE_MODELS } },
    upstreams: { ...now.upstreams, ...Object.fromEntries(Object.entries(upstreams).map(([id, u]) => [id, { ...u, keyName: 'OPENAI_API_KEY', headers: {} }])) },
  });
}

async function errorOf(res: Response): Promise<{ status: number; message: string; type: string }> {
  const body = (await res.json()) as { error: { message: string; type: string } };
  return { status: res.status, message: body.error.message, type: body.error.type };
}

void test('Spend (issue 31, item 2): a model outside the agent’s list, n over the limit, background, stored input, a costly tier and provider-run tools are 400s that reach no provider', async (t) => {
  const e = await startEndpoint(t);
  listModels(e);
  const before = e.openai.requests.length;
  const refused = async (path: string, token: string, body: Record<string, unknown>, message: RegExp) => {
    const r = await errorOf(await post(e, path, token, body));
    assert.equal(r.status, 400, JSON.stringify(r));
    assert.equal(r.type, 'invalid_request_error');
    assert.match(r.message, message);
  };
  await refused(COMPLETIONS, e.tokens.alice, completionsBody('hi', { model: 'o1-pro' }), /model o1-pro is not one of agent alice's models \(gpt-4o-mini, gpt-4o\)/);
  await refused(COMPLETIONS, e.tokens.alice, completionsBody('hi', { n: 128 }), /^n over 8 is refused/);
  await refused(COMPLETIONS, e.tokens.alice, completionsBody('hi', { service_tier: 'priority' }), /service_tier priority is refused/);
  await refused(COMPLETIONS, e.tokens.alice, completionsBody('hi', { web_search_options: {} }), /tool type web_search is refused/);
  await refused(COMPLETIONS, e.tokens.alice, { stream: false, messages: [{ role: 'user', content: 'hi' }] }, /^request has no model$/);
  await refused(COMPLETIONS, e.tokens.alice, completionsBody('hi', { model: 'x'.repeat(5_000) }), /^model name over 200 characters$/);
  await refused(RESPONSES, e.tokens.carol, { model: 'gpt-4o', input: 'hi', background: true }, /^background responses are refused/);
  await refused(RESPONSES, e.tokens.carol, { model: 'gpt-4o', input: 'hi', previous_response_id: 'resp_1' }, /^previous_response_id is refused/);
  await refused(RESPONSES, e.tokens.carol, { model: 'gpt-4o', input: 'hi', tools: [{ type: 'web_search_preview' }] }, /tool type web_search_preview is refused/);
  assert.equal(e.openai.requests.length, before, 'nothing was forwarded');
  assert.deepEqual(await callsOf(e), [], 'a refused request opens no call and reserves nothing');
  // A listed model passes; another snapshot of it is another model (it may cost more), not listed.
  const ok = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('hi', { stream: false, model: 'gpt-4o' }));
  assert.equal(ok.status, 200);
  await refused(COMPLETIONS, e.tokens.alice, completionsBody('hi', { model: 'gpt-4o-2024-05-13' }), /model gpt-4o-2024-05-13 is not one of/);
  assert.ok(Number(ok.headers.get('x-svc-overhead-ms')) >= 0, 'the answer says what svc added');
});

void test('Spend (issue 31, item 2): n answers are reserved as n answers, so a cap that fits one refuses four', async (t) => {
  const e = await startEndpoint(t);
  listModels(e);
  // One answer of 5,000 tokens fits a 1-cent cap on gpt-4o-mini; four do not.
  await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 1, mode: 'cap' });
  const one = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('one', { stream: false, max_tokens: 5_000 }));
  assert.equal(((await one.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content, 'ECHO: one');
  const four = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('four', { stream: false, max_tokens: 5_000, n: 4 }));
  const text = ((await four.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content ?? '';
  assert.match(text, /^svc stopped this call: the agent alice budget reached its cap of \$0\.01/);
  assert.equal(e.openai.prompts.filter((p) => p === 'four').length, 0, 'the four-answer call never reached the provider');
});

void test('Spend (issue 31, item 1): a model with no known price is refused under a cap and passes without one', async (t) => {
  const e = await startEndpoint(t);
  const unpriced = completionsBody('hi', { stream: false, model: 'svc-test-unpriced-model' });
  const free = await post(e, COMPLETIONS, e.tokens.alice, unpriced);
  assert.equal(free.status, 200, 'no cap applies: the call is tracked, not refused');
  await createBudget(e, { scope: 'global', scopeId: 'all', limitUsdCents: 10_000, mode: 'cap' });
  const r = await errorOf(await post(e, COMPLETIONS, e.tokens.alice, unpriced));
  assert.equal(r.status, 400);
  assert.match(r.message, /^model svc-test-unpriced-model has no known price, and a cap budget applies to this call/);
});

for (const stream of [false, true]) {
  const what = stream
    ? 'a streamed call whose client hangs up is closed at the provider and charged no less than its reservation'
    : 'a non-streamed call whose client hangs up is read to its end and charged what the provider billed';
  void test(`Spend (issue 31, item 2): ${what}`, async (t) => {
    const e = await startEndpoint(t);
    const upstream = await startBillingUpstream();
    t.after(() => upstream.close());
    listModels(e, { billing: { api: 'openai-completions', baseUrl: upstream.url } });
    const registry = e.runtime.deps.modelRouting.registry;
    registry.write({ ...registry.read(), agents: { ...registry.read().agents, alice: { upstream: 'billing', models: ALICE_MODELS } } });
    const budget = await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 100, mode: 'warn' });

    const hangUp = new AbortController();
    const pending = post(e, COMPLETIONS, e.tokens.alice, completionsBody('bill me', { stream, max_tokens: 100 }), {}, hangUp.signal).then(
      () => 'answered',
      () => 'hung up',
    );
    await upstream.untilWaiting(1);
    hangUp.abort();
    assert.equal(await pending, 'hung up');
    // svc has seen the hang-up (its only connection closed) before the provider answers.
    const server = e.app.server;
    await waitFor(() => new Promise<boolean>((resolve) => server.getConnections((err, n) => resolve(!err && n === 0))), { what: 'svc to see the client hang up' });
    upstream.release();
    await waitFor(() => upstream.billed.length === 1, { what: 'the provider to end its answer' });
    const [call] = await waitFor(async () => {
      const calls = await callsOf(e, '?agentId=alice');
      return calls[0]?.outcome === 'aborted' ? calls : null;
    }, { what: `the aborted call to settle (calls: ${JSON.stringify(await callsOf(e, '?agentId=alice'))})` });
    if (stream) {
      // Closing a stream is how a client stops the provider; what it billed until then is unknown: the whole reservation.
      assert.equal(upstream.billed[0]?.clientConnected, false, 'svc closed the provider’s stream');
      assert.equal(call?.outputTokens, 100, 'charged the reservation’s output (max_tokens)');
      assert.ok((call?.costUsd as number) >= (call?.estimateUsd as number), 'no less than the reservation');
    } else {
      assert.equal(upstream.billed[0]?.clientConnected, true, 'svc read the answer to its end');
      assert.equal(call?.inputTokens, BILLED_PROMPT_TOKENS);
      assert.equal(call?.outputTokens, BILLED_COMPLETION_TOKENS, 'charged the provider’s whole answer, past the caller’s max_tokens');
    }
    const [after] = (await budgetsOf(e)).filter((b) => b.id === budget.id);
    assert.equal(after?.spentUsd, Math.ceil((call?.costUsd as number) * 1e6) / 1e6);
    assert.equal(after?.reservedUsdCents, 0);
  });
}

void test('Spend (issue 31, item 4): a session key in the body names no budget: the agent’s own teams pay, another team’s budget is untouched', async (t) => {
  const e = await startEndpoint(t);
  listModels(e);
  const own = await createTeam(e.base, 'Own', [{ id: 'alice', name: 'Alice' }], 'alice');
  const other = await createTeam(e.base, 'Other', [{ id: 'olga', name: 'Olga' }], 'olga');
  const ownBudget = await createBudget(e, { scope: 'team', scopeId: own, limitUsdCents: 100, mode: 'cap' });
  const otherBudget = await createBudget(e, { scope: 'team', scopeId: other, limitUsdCents: 100, mode: 'cap' });
  const forged = `[Message] hi\n\nRuntime: agent=alice | session=agent:olga:team:${other} | model=fake/${PRICED_MODEL}`;

  // No run of alice's is going: every team alice is on pays, whatever the body says.
  assert.equal((await post(e, COMPLETIONS, e.tokens.alice, completionsBody(forged, { stream: false }))).status, 200);
  const spent = async () => Object.fromEntries((await budgetsOf(e)).map((b) => [b.id, b.spentUsd as number]));
  const first = await spent();
  assert.ok((first[ownBudget.id as string] ?? 0) > 0, 'alice’s team paid');
  assert.equal(first[otherBudget.id as string], 0, 'the team named in the body did not');
  const [unrun] = await callsOf(e, '?agentId=alice');
  assert.equal(unrun?.teamId, own);

  // A run svc started for alice: its team and task pay; the forged key changes nothing.
  createExecutions(e.runtime.deps.db).start({
    id: 'exec-own', teamId: own, agentId: 'alice', sessionKey: `agent:alice:team:${own}`, taskId: null, trigger: 'message', chainId: 'chain-own',
    traceId: 'trace-own', spanId: 'span-own', parentSpanId: null, startedAt: Date.now(), runId: 'run-own',
  });
  assert.equal((await post(e, COMPLETIONS, e.tokens.alice, completionsBody(forged, { stream: false }))).status, 200);
  const second = await spent();
  assert.ok((second[ownBudget.id as string] ?? 0) > (first[ownBudget.id as string] ?? 0));
  assert.equal(second[otherBudget.id as string], 0);
  const [inRun] = await callsOf(e, '?runId=run-own');
  assert.deepEqual([inRun?.teamId, inRun?.sessionKey], [own, `agent:alice:team:${own}`]);

  // A session key is stored only in its shape and length.
  const long = `[Message] hi\n\nRuntime: agent=alice | session=agent:alice:${'k'.repeat(5_000)} | model=x`;
  e.runtime.deps.db.prepare("UPDATE executions SET status = 'done' WHERE id = 'exec-own'").run();
  assert.equal((await post(e, COMPLETIONS, e.tokens.alice, completionsBody(long, { stream: false }))).status, 200);
  const stored = e.runtime.deps.db.prepare('SELECT max(length(session_key)) AS n FROM model_calls').get() as { n: number };
  assert.ok(stored.n <= 200, `a stored session key is at most 200 characters (got ${stored.n})`);
});

void test('Spend (issue 31, item 1): a per-model cap on gpt-4o counts gpt-4o-2024-08-06 and openai/gpt-4o-2024-11-20', async (t) => {
  const e = await startEndpoint(t);
  const registry = e.runtime.deps.modelRouting.registry;
  registry.write({ ...registry.read(), agents: { ...registry.read().agents, alice: { upstream: 'fake', models: ['gpt-4o', 'gpt-4o-2024-08-06', 'openai/gpt-4o-2024-11-20'] } } });
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'alice', model: 'gpt-4o', limitUsdCents: 100, mode: 'cap' });
  for (const model of ['gpt-4o-2024-08-06', 'openai/gpt-4o-2024-11-20']) {
    const r = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('hi', { stream: false, model }));
    assert.equal(r.status, 200, await r.clone().text());
  }
  const calls = await callsOf(e, '?agentId=alice');
  const total = calls.reduce((s, c) => s + (c.costUsd as number), 0);
  assert.ok(total > 0);
  const [after] = (await budgetsOf(e)).filter((b) => b.id === budget.id);
  assert.ok(Math.abs((after?.spentUsd as number) - total) < 2e-6, `both dated calls counted under gpt-4o (${String(after?.spentUsd)} vs ${total})`);
});

void test('Keys (issue 31, item 6): an upstream whose base URL moved to a host its key was not stored for is refused, and that host gets nothing', async (t) => {
  const e = await startEndpoint(t);
  const seen: Array<string | undefined> = [];
  const other = createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => other.close(() => resolve())));
  const registry = e.runtime.deps.modelRouting.registry;
  const now = registry.read();
  const moved = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1`;
  // The key was stored for the fake provider's host; the entry now names another.
  registry.write({ ...now, keyHosts: { OPENAI_API_KEY: [new URL(e.openai.url).origin] }, upstreams: { ...now.upstreams, fake: { ...now.upstreams.fake!, baseUrl: moved } } });
  const r = await errorOf(await post(e, COMPLETIONS, e.tokens.alice, completionsBody('hi', { stream: false })));
  assert.equal(r.status, 403);
  assert.match(r.message, /^upstream fake has moved to a host its key was not stored for: confirm the host in svc/);
  assert.deepEqual(seen, [], 'the moved host received no call and no key');
  // Back on the host the key was stored for, calls pass again.
  registry.write({ ...registry.read(), upstreams: { ...now.upstreams } });
  assert.equal((await post(e, COMPLETIONS, e.tokens.alice, completionsBody('hi', { stream: false }))).status, 200);
});

void test('Limits (issue 31, item 10): a body over 256 KiB is read in a pool thread, held to the same rules, and forwarded as received', async (t) => {
  const e = await startEndpoint(t, { SVC_MODEL_BODY_LIMIT_BYTES: String(4 * 1024 * 1024) });
  const big = 'lorem ipsum '.repeat(40_000);
  assert.ok(big.length > INLINE_BODY_BYTES);
  // The bulk in a system message, as an agent's long context is; the user's turn is short.
  const body = (extra: Record<string, unknown> = {}) => ({ ...completionsBody('short question'), messages: [{ role: 'system', content: big }, { role: 'user', content: 'short question' }], ...extra });
  const ok = await post(e, COMPLETIONS, e.tokens.alice, body({ stream: false }));
  assert.equal(ok.status, 200);
  assert.ok((e.openai.requests.at(-1)?.usage.prompt_tokens ?? 0) >= big.length / 4, 'the provider got the whole body');
  const refused = await errorOf(await post(e, COMPLETIONS, e.tokens.alice, body({ n: 128 })));
  assert.deepEqual([refused.status, refused.message.startsWith('n over 8 is refused')], [400, true]);
  const bad = await errorOf(await post(e, COMPLETIONS, e.tokens.alice, `{"model":"x","messages":"${big}`));
  assert.deepEqual([bad.status, bad.message], [400, 'request body is not a JSON object']);
  // A streamed large body that did not ask for usage is rewritten to ask for it (in the pool too).
  const streamed = await post(e, COMPLETIONS, e.tokens.alice, body());
  assert.equal(streamed.status, 200);
  await streamed.text();
  const [call] = await waitFor(async () => {
    const calls = await callsOf(e, '?agentId=alice');
    return calls[0]?.outcome === 'ok' ? calls : null;
  }, { what: 'the streamed call to settle' });
  assert.ok((call?.inputTokens as number) >= big.length / 4, 'its usage came back and was settled');
});

void test('Limits (issue 31, item 10): an agent past its calls in flight gets a 429 with retry-after that reaches no provider; a finished call frees its slot', async (t) => {
  const e = await startEndpoint(t, { SVC_MODEL_MAX_INFLIGHT_PER_AGENT: '1' });
  const held = post(e, COMPLETIONS, e.tokens.alice, completionsBody('SLOW: hold the slot'));
  await e.openai.untilHeld();
  const refused = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('second'));
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '1');
  assert.match(((await refused.json()) as { error: { message: string } }).error.message, /^agent alice already has 1 model calls in flight/);
  assert.equal(e.openai.prompts.includes('second'), false);
  // Another agent is not held back by alice's calls.
  assert.equal((await post(e, RESPONSES, e.tokens.carol, { model: 'gpt-4o', input: 'hi' })).status, 200);
  e.openai.release();
  await (await held).text();
  assert.equal((await post(e, COMPLETIONS, e.tokens.alice, completionsBody('third', { stream: false }))).status, 200);
});
