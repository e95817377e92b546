// svc's model endpoint through the official clients (issue 31, item 8): the
// `openai` and `@anthropic-ai/sdk` packages and their stream helpers, on a
// real socket, against every refusal and every error svc answers itself.
// Each refusal must come back as a typed result whose text is the refusal's;
// each error as the SDK's typed error carrying svc's message.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { PRICED_MODEL, TEST_BODY_LIMIT_BYTES, createBudget, post, startEndpoint, type Endpoint } from './model-endpoint-fixture.ts';

// Under a 1-cent cap, a call allowed 100k output tokens is refused: 6 cents at
// most for gpt-4o-mini (alice, carol), $1.50 for claude-sonnet-4-5 (bob, whose
// provider is Anthropic, which prices its own models only).
const MAX = 100_000;
const CLAUDE = 'claude-sonnet-4-5';
const refusal = (agentId: string) => `svc stopped this call: the agent ${agentId} budget reached its cap of $0.01. Resume it in svc to continue.`;

const openai = (e: Endpoint, agentId: string, apiKey: string) => new OpenAI({ baseURL: `${e.base}/model/${agentId}/v1`, apiKey, maxRetries: 0 });
// The Anthropic client appends `/v1/messages` itself. An explicit timeout (its
// own default, 10 minutes) stops it refusing a non-streamed call with a large
// max_tokens before sending it.
const anthropic = (e: Endpoint, agentId: string, apiKey: string) =>
  new Anthropic({ baseURL: `${e.base}/model/${agentId}`, apiKey, maxRetries: 0, timeout: 600_000 });

/** Asserts the promise rejects with an instance of `type` whose message holds `message`; returns the error. */
async function rejectsWith<T extends Error>(p: Promise<unknown>, type: abstract new (...args: never[]) => T, message: string): Promise<T> {
  let caught: unknown = null;
  await p.catch((err: unknown) => {
    caught = err;
  });
  assert.ok(caught instanceof type, `expected ${type.name}, got ${String(caught)}`);
  assert.ok(caught.message.includes(message), `"${caught.message}" does not hold "${message}"`);
  return caught;
}

void test('Budgets (issue 31, item 8): the openai SDK reads the chat-completions refusal, plain, streamed and through chat.completions.stream()', async (t) => {
  const e = await startEndpoint(t);
  await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 1, mode: 'cap' });
  const client = openai(e, 'alice', e.tokens.alice);
  const params = { model: PRICED_MODEL, max_tokens: MAX, messages: [{ role: 'user' as const, content: 'please' }] };

  const plain = await client.chat.completions.create(params);
  assert.equal(plain.choices[0]?.message.content, refusal('alice'));
  assert.equal(plain.choices[0]?.finish_reason, 'stop');

  let streamed = '';
  const finishes: string[] = [];
  for await (const chunk of await client.chat.completions.create({ ...params, stream: true })) {
    streamed += chunk.choices[0]?.delta.content ?? '';
    if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
  }
  assert.equal(streamed, refusal('alice'));
  assert.deepEqual(finishes, ['stop']);

  const helper = client.chat.completions.stream(params);
  const final = await helper.finalChatCompletion();
  assert.equal(final.choices[0]?.message.content, refusal('alice'));
  assert.equal(final.choices[0]?.finish_reason, 'stop');
  assert.equal(final.choices[0]?.message.tool_calls, undefined);
  assert.equal(e.openai.requests.length, 0, 'the provider was not called');
});

void test('Budgets (issue 31, item 8): the openai SDK reads the Responses refusal, plain, streamed event by event and through responses.stream()', async (t) => {
  const e = await startEndpoint(t);
  await createBudget(e, { scope: 'agent', scopeId: 'carol', limitUsdCents: 1, mode: 'cap' });
  const client = openai(e, 'carol', e.tokens.carol);
  const params = { model: PRICED_MODEL, max_output_tokens: MAX, input: 'please' };

  const plain = await client.responses.create(params);
  assert.equal(plain.status, 'completed');
  assert.equal(plain.output_text, refusal('carol'));

  const types: string[] = [];
  const sequence: number[] = [];
  let streamed = '';
  for await (const event of await client.responses.create({ ...params, stream: true })) {
    types.push(event.type);
    sequence.push(event.sequence_number);
    if (event.type === 'response.output_text.delta') streamed += event.delta;
  }
  assert.deepEqual(types, [
    'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta',
    'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
  ]);
  assert.deepEqual(sequence, types.map((_, i) => i));
  assert.equal(streamed, refusal('carol'));

  // The helper rebuilds the answer from the events: it failed with `missing content at index 0` before content_part.added was sent.
  const helper = client.responses.stream(params);
  const final = await helper.finalResponse();
  assert.equal(final.status, 'completed');
  assert.equal(final.output_text, refusal('carol'));
  assert.equal(e.anthropic.requests.length, 0, 'the provider was not called');
});

void test('Budgets (issue 31, item 8): the Anthropic SDK reads the Messages refusal, plain, streamed and through messages.stream()', async (t) => {
  const e = await startEndpoint(t);
  await createBudget(e, { scope: 'agent', scopeId: 'bob', limitUsdCents: 1, mode: 'cap' });
  const client = anthropic(e, 'bob', e.tokens.bob);
  const params = { model: CLAUDE, max_tokens: MAX, messages: [{ role: 'user' as const, content: 'please' }] };
  const textOf = (m: Anthropic.Message) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

  const plain = await client.messages.create(params);
  assert.equal(textOf(plain), refusal('bob'));
  assert.equal(plain.stop_reason, 'end_turn');

  let streamed = '';
  const types: string[] = [];
  for await (const event of await client.messages.create({ ...params, stream: true })) {
    types.push(event.type);
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') streamed += event.delta.text;
  }
  assert.deepEqual(types, ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
  assert.equal(streamed, refusal('bob'));

  const helper = client.messages.stream(params);
  const final = await helper.finalMessage();
  assert.equal(textOf(final), refusal('bob'));
  assert.equal(final.stop_reason, 'end_turn');
  assert.equal(await helper.finalText(), refusal('bob'));
  assert.equal(e.anthropic.requests.length, 0, 'the provider was not called');
});

void test('Budgets (issue 31, item 8): svc’s own errors reach the openai SDK as its typed errors with svc’s message', async (t) => {
  const e = await startEndpoint(t);
  const chat = { model: PRICED_MODEL, messages: [{ role: 'user' as const, content: 'hi' }] };

  const bad = openai(e, 'alice', 'svc_model_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  const auth = await rejectsWith(bad.chat.completions.create(chat), OpenAI.AuthenticationError, 'invalid svc model token');
  assert.equal(auth.status, 401);
  await rejectsWith(bad.chat.completions.stream(chat).finalChatCompletion(), OpenAI.AuthenticationError, 'invalid svc model token');
  await rejectsWith(openai(e, 'carol', e.tokens.alice).responses.stream({ model: PRICED_MODEL, input: 'hi' }).finalResponse(), OpenAI.AuthenticationError, 'invalid svc model token');

  const alice = openai(e, 'alice', e.tokens.alice);
  await rejectsWith(alice.embeddings.create({ model: 'text-embedding-3-small', input: 'x' }), OpenAI.NotFoundError, 'unknown model API path');
  await rejectsWith(openai(e, 'dave', e.tokens.dave).chat.completions.create(chat), OpenAI.NotFoundError, 'agent dave is not routed through svc');

  // The openai SDK has no class of its own for a 413: its base APIError, with the status.
  const big = { ...chat, messages: [{ role: 'user' as const, content: 'x'.repeat(TEST_BODY_LIMIT_BYTES) }] };
  const tooLarge = await rejectsWith(alice.chat.completions.create(big), OpenAI.APIError, `request body over ${TEST_BODY_LIMIT_BYTES} bytes`);
  assert.equal(tooLarge.status, 413);

  // Bad JSON cannot be sent through an SDK: the envelope it would read.
  const badJson = await post(e, '/model/alice/v1/chat/completions', e.tokens.alice, '{not json');
  assert.equal(badJson.status, 400);
  assert.deepEqual(await badJson.json(), { error: { message: 'request body is not a JSON object', type: 'invalid_request_error', param: null, code: null } });
  assert.equal(e.openai.requests.length, 0);
});

void test('Budgets (issue 31, item 8): svc’s own errors on the Anthropic path answer in Anthropic’s envelope and reach its SDK as typed errors', async (t) => {
  const e = await startEndpoint(t);
  const params = { model: CLAUDE, max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] };

  const bad = anthropic(e, 'bob', e.tokens.alice);
  const auth = await rejectsWith(bad.messages.create(params), Anthropic.AuthenticationError, 'invalid svc model token');
  assert.deepEqual([auth.status, auth.type, auth.apiMessage], [401, 'authentication_error', 'invalid svc model token']);
  await rejectsWith(bad.messages.stream(params).finalMessage(), Anthropic.AuthenticationError, 'invalid svc model token');

  const dave = await rejectsWith(anthropic(e, 'dave', e.tokens.dave).messages.create(params), Anthropic.NotFoundError, 'agent dave is not routed through svc');
  assert.deepEqual([dave.type, dave.apiMessage], ['not_found_error', 'agent dave is not routed through svc']);
  // A path svc does not serve names no API: OpenAI's envelope, which the Anthropic SDK still reads.
  const bob = anthropic(e, 'bob', e.tokens.bob);
  await rejectsWith(bob.messages.countTokens(params), Anthropic.NotFoundError, 'unknown model API path');

  const big = { ...params, messages: [{ role: 'user' as const, content: 'x'.repeat(TEST_BODY_LIMIT_BYTES) }] };
  const tooLarge = await rejectsWith(bob.messages.create(big), Anthropic.ContentTooLargeError, `request body over ${TEST_BODY_LIMIT_BYTES} bytes`);
  assert.deepEqual([tooLarge.status, tooLarge.type], [413, 'request_too_large']);

  const badJson = await post(e, '/model/bob/v1/messages', null, '{not json', { 'x-api-key': e.tokens.bob });
  assert.equal(badJson.status, 400);
  assert.deepEqual(await badJson.json(), { type: 'error', error: { type: 'invalid_request_error', message: 'request body is not a JSON object' } });
  const get = await fetch(`${e.base}/model/bob/v1/messages`, { headers: { 'x-api-key': e.tokens.bob } });
  assert.equal(get.status, 405);
  assert.deepEqual(await get.json(), { type: 'error', error: { type: 'invalid_request_error', message: 'method not allowed: use POST' } });
  assert.equal(e.anthropic.requests.length, 0);
});

/** An address with nothing listening (free a moment ago): a connect there is refused. */
async function deadUrl(): Promise<string> {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  return `http://127.0.0.1:${port}`;
}

void test('Budgets (issue 31, item 8): a request svc will not forward is a typed 400 and a provider that is down a typed 5xx, in each SDK', async (t) => {
  const e = await startEndpoint(t);
  const carol = openai(e, 'carol', e.tokens.carol);
  const background = await rejectsWith(carol.responses.create({ model: PRICED_MODEL, input: 'hi', background: true }), OpenAI.BadRequestError, 'background responses are refused');
  assert.equal(background.type, 'invalid_request_error');
  const bob = anthropic(e, 'bob', e.tokens.bob);
  const params = { model: CLAUDE, max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] };
  const tool = await rejectsWith(
    bob.messages.stream({ ...params, tools: [{ type: 'web_search_20250305', name: 'web_search' }] }).finalMessage(),
    Anthropic.BadRequestError,
    'tool type web_search_20250305 is refused',
  );
  assert.equal(tool.type, 'invalid_request_error');
  assert.equal(e.anthropic.requests.length, 0);

  const dead = await deadUrl();
  const reg = e.runtime.deps.modelRouting.registry;
  const current = reg.read();
  // The keys' host confirmed for the dead address (issue 31, item 6): the calls go out and find nobody.
  const bind = (name: string) => [...(current.keyHosts[name] ?? []), new URL(dead).origin];
  reg.write({
    ...current,
    keyHosts: { ...current.keyHosts, OPENAI_API_KEY: bind('OPENAI_API_KEY'), ANTHROPIC_API_KEY: bind('ANTHROPIC_API_KEY') },
    upstreams: {
      ...current.upstreams,
      fake: { ...current.upstreams.fake!, baseUrl: `${dead}/v1` },
      anthropic: { ...current.upstreams.anthropic!, baseUrl: dead },
    },
  });
  const chat = { model: PRICED_MODEL, messages: [{ role: 'user' as const, content: 'hi' }] };
  const down = await rejectsWith(openai(e, 'alice', e.tokens.alice).chat.completions.stream(chat).finalChatCompletion(), OpenAI.InternalServerError, 'provider unreachable');
  assert.deepEqual([down.status, down.type], [502, 'server_error']);
  const aDown = await rejectsWith(bob.messages.create(params), Anthropic.InternalServerError, 'provider unreachable');
  assert.deepEqual([aDown.status, aDown.type, aDown.apiMessage], [502, 'api_error', 'provider unreachable']);
});
