// The model endpoint's pure parts (issue 22, items 1, 3, 4): API dispatch,
// upstream URL and headers, the estimate, the usage request, the session key
// of the gateway's Runtime line, and the refusal in each API's shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiOfTail, traceIdOf, upstreamHeaders, upstreamUrl, withUsageRequested } from '../../shared/model-proxy/api.ts';
import { sessionKeyOf, storableSessionKey } from '../../shared/model-proxy/call-context.ts';
import { DEFAULT_MAX_OUTPUT_TOKENS, estimateCall, maxOutputTokensOf } from '../../shared/model-proxy/estimate.ts';
import { refusalAnswer } from '../../shared/model-proxy/refusal.ts';
import { choicesOf } from '../../shared/model-proxy/request-rules.ts';
import { BUILT_IN_PRICES, costUsd, createPrices } from '../../shared/pricing/index.ts';

void test('Budgets (issue 22, item 1): path tails pick the API; the upstream URL is the provider’s own', () => {
  assert.equal(apiOfTail('v1/chat/completions'), 'openai-completions');
  assert.equal(apiOfTail('chat/completions?x=1'), 'openai-completions');
  assert.equal(apiOfTail('v1/messages'), 'anthropic-messages');
  assert.equal(apiOfTail('responses'), 'openai-responses');
  assert.equal(apiOfTail('v1/embeddings'), null);
  assert.equal(upstreamUrl({ baseUrl: 'https://api.openai.com/v1/' }, 'openai-completions'), 'https://api.openai.com/v1/chat/completions');
  assert.equal(upstreamUrl({ baseUrl: 'https://api.openai.com/v1' }, 'openai-responses'), 'https://api.openai.com/v1/responses');
  assert.equal(upstreamUrl({ baseUrl: 'https://api.anthropic.com' }, 'anthropic-messages'), 'https://api.anthropic.com/v1/messages');
  assert.equal(upstreamUrl({ baseUrl: 'https://x.example/anthropic/v1' }, 'anthropic-messages'), 'https://x.example/anthropic/v1/messages');
  assert.equal(traceIdOf('00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01'), '0af7651916cd43dd8448eb211c80319c');
  assert.equal(traceIdOf('garbage'), null);
});

void test('Budgets (issue 22, item 1): the caller’s credentials never go upstream; the real key does', () => {
  const incoming = { authorization: 'Bearer svc_model_x', 'x-api-key': 'svc_model_x', cookie: 'a=b', traceparent: 't', 'x-stainless-os': 'Linux', 'anthropic-beta': 'b1', host: 'h', 'content-length': '5' };
  const openai = upstreamHeaders(incoming, { api: 'openai-completions', apiKey: 'sk-real', headers: { 'X-Org': 'o' } }, 10);
  assert.deepEqual(openai, { traceparent: 't', 'x-stainless-os': 'Linux', 'anthropic-beta': 'b1', 'x-org': 'o', 'content-type': 'application/json', 'content-length': '10', authorization: 'Bearer sk-real' });
  const anthropic = upstreamHeaders(incoming, { api: 'anthropic-messages', apiKey: 'sk-ant', headers: {} }, 3);
  assert.equal(anthropic['x-api-key'], 'sk-ant');
  assert.equal(anthropic.authorization, undefined);
  assert.equal(anthropic['anthropic-version'], '2023-06-01');
  const keyless = upstreamHeaders(incoming, { api: 'openai-completions', apiKey: null, headers: {} }, 3);
  assert.equal(keyless.authorization, undefined);
});

void test('Budgets (issue 22, item 3): the estimate is body bytes / 3 in, the request’s maximum (else 4096) out, priced by the price book', () => {
  assert.deepEqual(estimateCall(BUILT_IN_PRICES, 'openai/gpt-4o-mini', 300, maxOutputTokensOf({ max_tokens: 50 }), choicesOf('openai-completions', { max_tokens: 50 })), { inputTokens: 100, outputTokens: 50, usd: costUsd('gpt-4o-mini', 100, 50) });
  assert.equal(estimateCall(BUILT_IN_PRICES, 'openai/gpt-4o', 3, maxOutputTokensOf({ max_completion_tokens: 7, max_tokens: 9 }), choicesOf('openai-completions', { max_completion_tokens: 7, max_tokens: 9 })).outputTokens, 7);
  assert.equal(estimateCall(BUILT_IN_PRICES, 'openai/gpt-4o', 3, maxOutputTokensOf({ max_output_tokens: 11 }), choicesOf('openai-completions', { max_output_tokens: 11 })).outputTokens, 11);
  assert.equal(estimateCall(BUILT_IN_PRICES, 'openai/gpt-4o', 3, maxOutputTokensOf({}), choicesOf('openai-completions', {})).outputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
  assert.equal(estimateCall(BUILT_IN_PRICES, 'openai/gpt-4o', 3, maxOutputTokensOf({ max_tokens: -1 }), choicesOf('openai-completions', { max_tokens: -1 })).outputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
  // n answers reserve n times the output (chat completions only).
  assert.equal(estimateCall(BUILT_IN_PRICES, 'openai/gpt-4o', 3, maxOutputTokensOf({ max_tokens: 10, n: 4 }), choicesOf('openai-completions', { max_tokens: 10, n: 4 })).outputTokens, 40);
  assert.equal(estimateCall(BUILT_IN_PRICES, 'openai/gpt-4o', 3, maxOutputTokensOf({ max_output_tokens: 10, n: 4 }), choicesOf('openai-responses', { max_output_tokens: 10, n: 4 })).outputTokens, 10);
  // A price the gateway's config gives the upstream's model is what the estimate reserves at.
  const configured = createPrices(new Map([['openai/gpt-4o-mini', { input: 10, output: 20 }]]));
  assert.equal(estimateCall(configured, 'openai/gpt-4o-mini', 300, maxOutputTokensOf({ max_tokens: 50 }), choicesOf('openai-completions', { max_tokens: 50 })).usd, (100 * 10 + 50 * 20) / 1e6);
});

void test('Budgets (issue 22, item 3): an OpenAI completions stream is made to ask for its usage; other bodies go as received', () => {
  const raw = Buffer.from('{"stream":true,"model":"m"}');
  const sent = JSON.parse(withUsageRequested('openai-completions', raw, { stream: true, model: 'm' }).toString()) as Record<string, unknown>;
  assert.deepEqual(sent.stream_options, { include_usage: true });
  const asked = Buffer.from('{"stream":true,"stream_options":{"include_usage":true}}');
  assert.equal(withUsageRequested('openai-completions', asked, { stream: true, stream_options: { include_usage: true } }), asked);
  assert.equal(withUsageRequested('openai-completions', raw, { stream: false }), raw);
  assert.equal(withUsageRequested('anthropic-messages', raw, { stream: true }), raw);
});

void test('Budgets (issue 22, item 5): the session key comes from the Runtime line of the last user message', () => {
  const line = 'Runtime: agent=alice | session=agent:alice:team:T1 | sessionId=u | model=svc-alice/gpt-4o';
  assert.equal(sessionKeyOf({ messages: [{ role: 'user', content: `hi\n${line}` }] }), 'agent:alice:team:T1');
  assert.equal(sessionKeyOf({ messages: [{ role: 'user', content: [{ type: 'text', text: line }] }, { role: 'assistant', content: 'x' }] }), 'agent:alice:team:T1');
  // The real gateway's last user message is its internal-context block; the turn's Runtime line is in the one before.
  const internal = '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nnotes\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>';
  assert.equal(sessionKeyOf({ messages: [{ role: 'user', content: line }, { role: 'user', content: internal }] }), 'agent:alice:team:T1');
  // The newest Runtime line wins over an older turn's.
  const older = 'Runtime: agent=alice | session=agent:alice:team:OLD | model=fake/m';
  assert.equal(sessionKeyOf({ messages: [{ role: 'user', content: older }, { role: 'assistant', content: 'x' }, { role: 'user', content: line }] }), 'agent:alice:team:T1');
  assert.equal(sessionKeyOf({ messages: [{ role: 'user', content: 'no runtime here' }] }), null);
  assert.equal(sessionKeyOf({ input: [{ role: 'user', content: [{ type: 'input_text', text: line }] }] }), 'agent:alice:team:T1');
  assert.equal(sessionKeyOf({}), null);
  // A caller-written key is kept only in a session key's shape and length.
  assert.equal(storableSessionKey('agent:alice:team:T1:spawn:2'), 'agent:alice:team:T1:spawn:2');
  assert.equal(storableSessionKey(`agent:${'x'.repeat(300)}`), null);
  assert.equal(storableSessionKey('agent:a b\n<script>'), null);
  assert.equal(storableSessionKey(null), null);
});

void test('Budgets (issue 22, item 4): the refusal is a normal completion in each API’s shape, streamed or not', () => {
  const base = { id: 'c1', model: 'm', text: 'stop', nowMs: 0 };
  const j = JSON.parse(refusalAnswer('openai-completions', { ...base, stream: false }).body) as { choices: Array<{ finish_reason: string; message: { content: string; tool_calls?: unknown } }> };
  assert.equal(j.choices[0]?.finish_reason, 'stop');
  assert.equal(j.choices[0]?.message.content, 'stop');
  assert.equal(j.choices[0]?.message.tool_calls, undefined);
  const s = refusalAnswer('openai-completions', { ...base, stream: true });
  assert.equal(s.contentType, 'text/event-stream');
  assert.ok(s.body.endsWith('data: [DONE]\n\n'));
  const m = JSON.parse(refusalAnswer('anthropic-messages', { ...base, stream: false }).body) as { stop_reason: string; content: unknown[] };
  assert.equal(m.stop_reason, 'end_turn');
  assert.deepEqual(m.content, [{ type: 'text', text: 'stop' }]);
  const r = JSON.parse(refusalAnswer('openai-responses', { ...base, stream: false }).body) as { status: string; output: Array<{ content: Array<{ text: string }> }> };
  assert.equal(r.status, 'completed');
  assert.equal(r.output[0]?.content[0]?.text, 'stop');
  const rs = refusalAnswer('openai-responses', { ...base, stream: true }).body;
  assert.match(rs, /event: response\.completed\n/);
});
