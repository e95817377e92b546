// svc's model endpoint, bad input and faults (issue 22, items 1 and 3): the
// token gate, unknown agents and paths, the body limit, bad JSON, a provider
// that is down, provider errors passed through, a stream the provider cuts,
// a caller that goes away, and provider keys that never leak.
import assert from 'node:assert/strict';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../shared/model-proxy/estimate.ts';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { createLogger } from '../../shared/log.ts';
import { createRuntime } from '../../supervisor/runtime.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  ANTHROPIC_KEY, OPENAI_KEY, TEST_BODY_LIMIT_BYTES, budgetsOf, callsOf, completionsBody, createBudget, post, startEndpoint, type Endpoint,
} from './model-endpoint-fixture.ts';

const COMPLETIONS = '/model/alice/v1/chat/completions';
const MESSAGES = '/model/bob/v1/messages';

const anthropicBody = (prompt: string, extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4-5', max_tokens: 300, stream: true, messages: [{ role: 'user', content: prompt }], ...extra,
});

const openReservations = (e: Endpoint) =>
  e.runtime.deps.db.prepare("SELECT COUNT(*) FROM budget_reservations WHERE state = 'open'").pluck().get() as number;

async function endedCall(e: Endpoint, agentId: string): Promise<Record<string, unknown>> {
  return waitFor(async () => {
    const [c] = await callsOf(e, `?agentId=${agentId}`);
    return c && c.outcome !== 'open' ? c : undefined;
  }, { what: `the model call of ${agentId} to end` });
}

void test('Budgets (issue 22, item 1): no token, a wrong token or another agent’s token is a 401 that reaches no provider', async (t) => {
  const e = await startEndpoint(t);
  const body = completionsBody('hi');
  const cases: Array<[string, Record<string, string>]> = [
    ['none', {}],
    ['wrong', { authorization: 'Bearer svc_model_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['garbage', { 'x-api-key': 'not a token' }],
    ['another agent', { authorization: `Bearer ${e.tokens.bob}` }],
    ['another purpose', { authorization: `Bearer ${e.runtime.deps.agentTokens.mint('mcp', { agentId: 'alice' }).token}` }],
  ];
  for (const [name, headers] of cases) {
    const r = await post(e, COMPLETIONS, null, body, headers);
    assert.equal(r.status, 401, name);
    assert.deepEqual(await r.json(), { error: { message: 'invalid svc model token', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, name);
  }
  assert.equal(e.openai.requests.length, 0);
  assert.deepEqual(await callsOf(e), []);
});

void test('Budgets (issue 22, item 1): an unrouted agent is a 404, an unknown API path a 404, a GET a 405, bad JSON a 400, a body over the limit a 413', async (t) => {
  const e = await startEndpoint(t);
  const dave = await post(e, '/model/dave/v1/chat/completions', e.tokens.dave, completionsBody('hi'));
  assert.equal(dave.status, 404);
  assert.deepEqual(((await dave.json()) as { error: { message: string } }).error.message, 'agent dave is not routed through svc');

  const path = await post(e, '/model/alice/v1/embeddings', e.tokens.alice, { input: 'x' });
  assert.equal(path.status, 404);
  assert.equal(((await path.json()) as { error: { message: string } }).error.message, 'unknown model API path');

  const get = await fetch(`${e.base}${COMPLETIONS}`, { headers: { authorization: `Bearer ${e.tokens.alice}` } });
  assert.equal(get.status, 405);

  for (const bad of ['{not json', '[1,2]', '']) {
    const r = await post(e, COMPLETIONS, e.tokens.alice, bad);
    assert.equal(r.status, 400, JSON.stringify(bad));
    assert.equal(((await r.json()) as { error: { message: string } }).error.message, 'request body is not a JSON object');
  }

  const big = JSON.stringify(completionsBody('x'.repeat(TEST_BODY_LIMIT_BYTES)));
  const tooLarge = await post(e, COMPLETIONS, e.tokens.alice, big);
  assert.equal(tooLarge.status, 413);
  assert.deepEqual(await tooLarge.json(), { error: { message: `request body over ${TEST_BODY_LIMIT_BYTES} bytes`, type: 'invalid_request_error', param: null, code: null } });
  assert.equal(e.openai.requests.length, 0);
  assert.deepEqual(await callsOf(e), []);
});

void test('Budgets (issue 22, item 3): a provider that is down is a 502 and the reservation is released', async (t) => {
  const e = await startEndpoint(t);
  // A port that was free a moment ago and has nothing listening: connection refused.
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const reg = e.runtime.deps.modelRouting.registry;
  const current = reg.read();
  // The key's host confirmed for the new address (issue 31, item 6), so the call goes out and finds nobody.
  const keyHosts = { ...current.keyHosts, OPENAI_API_KEY: [...(current.keyHosts.OPENAI_API_KEY ?? []), `http://127.0.0.1:${port}`] };
  reg.write({ ...current, keyHosts, upstreams: { ...current.upstreams, fake: { ...current.upstreams.fake!, baseUrl: `http://127.0.0.1:${port}/v1` } } });
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 500, mode: 'cap' });
  const r = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('hi'));
  assert.equal(r.status, 502);
  assert.deepEqual(await r.json(), { error: { message: 'provider unreachable', type: 'server_error', param: null, code: null } });
  const call = await endedCall(e, 'alice');
  assert.deepEqual([call.outcome, call.httpStatus], ['upstream_error', 502]);
  assert.equal(openReservations(e), 0);
  assert.equal((await budgetsOf(e)).find((b) => b.id === budget.id)?.spentUsd, 0);
});

void test('Budgets (issue 22, item 3): a provider 429 or 402 reaches the caller unchanged (the gateway’s own retry applies) and nothing is spent', async (t) => {
  const e = await startEndpoint(t);
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'bob', limitUsdCents: 500, mode: 'cap' });
  const r429 = await post(e, MESSAGES, e.tokens.bob, anthropicBody('HTTP429: now'));
  assert.equal(r429.status, 429);
  assert.equal(r429.headers.get('retry-after'), '1');
  assert.deepEqual(await r429.json(), { type: 'error', error: { type: 'rate_limit_error', message: 'fake: slow down' } });
  const r402 = await post(e, MESSAGES, e.tokens.bob, anthropicBody('HTTP402: now'));
  assert.equal(r402.status, 402);
  assert.deepEqual(await r402.json(), { type: 'error', error: { type: 'billing_error', message: 'fake: insufficient credit' } });
  const calls = await callsOf(e, '?agentId=bob');
  assert.deepEqual(calls.map((c) => [c.outcome, c.httpStatus]), [['upstream_error', 402], ['upstream_error', 429]]);
  assert.equal(openReservations(e), 0);
  assert.equal((await budgetsOf(e)).find((b) => b.id === budget.id)?.spentUsd, 0);
});

void test('Budgets (issue 22, item 3): a stream the provider cuts is cut for the caller too and settled at what was seen', async (t) => {
  const e = await startEndpoint(t);
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'bob', limitUsdCents: 500, mode: 'cap' });
  const r = await post(e, MESSAGES, e.tokens.bob, anthropicBody('CUT: a long answer'));
  assert.equal(r.status, 200);
  await assert.rejects(r.text(), 'the caller sees the cut');
  const call = await endedCall(e, 'bob');
  assert.equal(call.outcome, 'cut');
  // message_start said its input; the output is the larger of its 1 token and the streamed "ECHO:" (5 chars → 2 tokens).
  const seen = e.anthropic.requests[0]!;
  assert.equal(seen.state, 'cut');
  assert.equal(call.outputTokens, 2);
  assert.ok((call.inputTokens as number) > 0);
  assert.ok((call.costUsd as number) > 0);
  assert.equal(openReservations(e), 0);
  assert.equal((await budgetsOf(e)).find((b) => b.id === budget.id)?.spentUsd, Math.ceil((call.costUsd as number) * 1e6) / 1e6);
});

void test('Budgets (issue 22, item 3; issue 31, item 2): a caller that goes away mid-stream closes the provider’s stream, settled at no less than the reservation', async (t) => {
  const e = await startEndpoint(t);
  await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 500, mode: 'cap' });
  // node:http, not fetch: fetch's pool opens a spare connection on an abort, which the server then holds until its headers timeout.
  const body = JSON.stringify(completionsBody('SLOW: wait here'));
  const req = request({ host: '127.0.0.1', port: e.port, method: 'POST', path: COMPLETIONS, agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${e.tokens.alice}` } });
  const firstChunk = new Promise<string>((resolve, reject) => {
    req.on('response', (res) => res.once('data', (d: Buffer) => resolve(d.toString())));
    req.on('error', reject);
  });
  req.end(body);
  await e.openai.untilHeld();
  assert.match(await firstChunk, /data: /);
  req.destroy();
  await waitFor(() => e.openai.requests[0]?.state === 'closed', { what: 'the provider’s stream to be closed by svc' });
  const call = await endedCall(e, 'alice');
  assert.equal(call.outcome, 'aborted');
  // What the provider billed before it saw the close is unknown: the reservation's output (no max sent: 4096) and input.
  assert.equal(call.outputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
  assert.ok((call.inputTokens as number) > 0);
  assert.ok((call.costUsd as number) >= (call.estimateUsd as number));
  assert.equal(openReservations(e), 0);
});

void test('Budgets (issue 22, item 2): a provider key never appears in a response, a log line, an event row or a model_calls row', async (t) => {
  const e = await startEndpoint(t);
  await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 1, mode: 'cap' });
  const answers: string[] = [];
  const collect = async (r: Response) => answers.push(JSON.stringify([...r.headers]), await r.text().catch(() => 'cut'));
  await collect(await post(e, MESSAGES, e.tokens.bob, anthropicBody('hello')));
  await collect(await post(e, MESSAGES, e.tokens.bob, anthropicBody('HTTP402: x')));
  await collect(await post(e, MESSAGES, e.tokens.bob, anthropicBody('CUT: x')));
  await collect(await post(e, COMPLETIONS, e.tokens.alice, completionsBody('refuse me', { max_tokens: 100_000 })));
  await collect(await post(e, '/model/dave/v1/chat/completions', e.tokens.dave, completionsBody('x')));
  await collect(await post(e, COMPLETIONS, null, completionsBody('x')));
  await endedCall(e, 'bob');
  const db = e.runtime.deps.db;
  const stored = [
    ...(db.prepare('SELECT * FROM events').all() as unknown[]),
    ...(db.prepare('SELECT * FROM model_calls').all() as unknown[]),
    ...(db.prepare('SELECT * FROM governance_audit').all() as unknown[]),
    ...(db.prepare('SELECT * FROM cost_records').all() as unknown[]),
  ].map((r) => JSON.stringify(r));
  for (const key of [OPENAI_KEY, ANTHROPIC_KEY]) {
    for (const [where, texts] of [['responses', answers], ['logs', e.logs], ['rows', stored]] as const) {
      assert.ok(!texts.some((s) => s.includes(key)), `${key.slice(0, 8)}… in ${where}`);
    }
  }
  // The keys did reach the providers (so the check above looked at calls that carried them).
  assert.equal(e.anthropic.requests[0]?.headers['x-api-key'], ANTHROPIC_KEY);
});

void test('Budgets (issue 22, item 3): a call open when svc dies is closed at the next boot: its row `interrupted` at its estimate, its reservation settled', async (t) => {
  const e = await startEndpoint(t);
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 500, mode: 'cap' });
  const req = request({ host: '127.0.0.1', port: e.port, method: 'POST', path: COMPLETIONS, agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${e.tokens.alice}` } });
  req.on('error', () => undefined);
  req.end(JSON.stringify(completionsBody('SLOW: never finishes')));
  await e.openai.untilHeld();
  const [open] = await callsOf(e, '?agentId=alice');
  assert.equal(open?.outcome, 'open');
  assert.equal(openReservations(e), 1);
  // The next boot on the same home (what a restart after kill -9 finds: the rows as they were).
  const next = createRuntime(e.config, createLogger({ level: 'warn' }), { startWorkers: false });
  try {
    const row = next.deps.modelCalls.get(open!.id as string);
    assert.equal(row?.outcome, 'interrupted');
    assert.equal(row?.costUsd, open?.estimateUsd);
    assert.equal(next.deps.db.prepare("SELECT COUNT(*) FROM budget_reservations WHERE state = 'open'").pluck().get(), 0);
    const spent = next.deps.budgets.store.list().find((b) => b.id === budget.id)?.spentUsd;
    assert.equal(spent, Math.ceil((open?.estimateUsd as number) * 1e6) / 1e6);
    // Its span too, ended by the restart (error.type `interrupted`), so a trace shows the call.
    const spans = next.deps.db
      .prepare("SELECT kind, data FROM events WHERE correlation_id = ? AND kind IN ('span_start', 'span_end') ORDER BY seq")
      .all(open!.id) as Array<{ kind: string; data: string }>;
    assert.deepEqual(spans.map((r) => r.kind), ['span_start', 'span_end']);
    const end = JSON.parse(spans[1]?.data ?? '{}') as Record<string, unknown>;
    assert.equal(end.outcome, 'interrupted');
    assert.equal(end.errorType, 'interrupted');
    assert.equal(end.agentName ?? JSON.parse(spans[0]?.data ?? '{}').agentName, 'alice');
  } finally {
    req.destroy();
    await next.close();
  }
});
