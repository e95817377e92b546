// Usage read on the side of the pass-through (issue 22, item 3): from SSE
// streams however the bytes are split, and from JSON answers, per API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SseUsageReader, usageOfBody } from '../../shared/model-proxy/usage.ts';
import type { RoutedApi } from '../../shared/model-routing/registry.ts';

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

/** Feeds `text` split into pieces of `size` bytes (a multi-byte character may straddle two). */
function read(api: RoutedApi, text: string, size: number): SseUsageReader {
  const r = new SseUsageReader(api);
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) r.feed(bytes.subarray(i, i + size));
  return r;
}

const openai = `${sse([
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'héllo ' } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] } }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  { choices: [], usage: { prompt_tokens: 120, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 100 } } },
])}data: [DONE]\n\n`;

const anthropic = [
  'event: message_start\n',
  `data: ${JSON.stringify({ type: 'message_start', message: { usage: { input_tokens: 10, cache_read_input_tokens: 200, cache_creation_input_tokens: 5, output_tokens: 1 } } })}\n\n`,
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'abcd' } })}\n\n`,
  `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } })}\n\n`,
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('');

const responses = sse([
  { type: 'response.created', response: { status: 'in_progress' } },
  { type: 'response.output_text.delta', delta: 'xyz' },
  { type: 'response.completed', response: { usage: { input_tokens: 30, output_tokens: 9, input_tokens_details: { cached_tokens: 4 } } } },
]);

void test('Budgets (issue 22, item 3): usage and streamed text are read from each API’s SSE stream whatever the chunk boundaries', () => {
  for (const size of [1, 3, 7, 64, 100_000]) {
    const o = read('openai-completions', openai, size);
    assert.deepEqual(o.usage, { inputTokens: 120, outputTokens: 7, cacheReadTokens: 100, cacheWriteTokens: 0 }, `openai, ${size}`);
    assert.equal(o.outputChars, 'héllo '.length + '{"a":1}'.length);
    const a = read('anthropic-messages', anthropic, size);
    // Anthropic's input_tokens excludes the cache tokens, which are billed as input too.
    assert.deepEqual(a.usage, { inputTokens: 215, outputTokens: 42, cacheReadTokens: 200, cacheWriteTokens: 5 }, `anthropic, ${size}`);
    assert.equal(a.outputChars, 4);
    const r = read('openai-responses', responses, size);
    assert.deepEqual(r.usage, { inputTokens: 30, outputTokens: 9, cacheReadTokens: 4, cacheWriteTokens: 0 }, `responses, ${size}`);
    assert.equal(r.outputChars, 3);
  }
});

void test('Budgets (issue 22, item 3): a stream cut before its usage has none; keep-alives and foreign lines are ignored', () => {
  const cut = read('openai-completions', openai.slice(0, openai.indexOf('"usage"') - 20), 5);
  assert.equal(cut.usage, null);
  assert.ok(cut.outputChars > 0);
  const noisy = read('anthropic-messages', `: ping\n\ndata: not json\n\n${anthropic}`, 9);
  assert.equal(noisy.usage?.outputTokens, 42);
});

void test('Budgets (issue 22, item 3): usage of non-streamed answers', () => {
  assert.deepEqual(usageOfBody('openai-completions', { usage: { prompt_tokens: 5, completion_tokens: 6 } }), { inputTokens: 5, outputTokens: 6, cacheReadTokens: 0, cacheWriteTokens: 0 });
  assert.deepEqual(usageOfBody('anthropic-messages', { usage: { input_tokens: 5, output_tokens: 6, cache_read_input_tokens: 1 } }), { inputTokens: 6, outputTokens: 6, cacheReadTokens: 1, cacheWriteTokens: 0 });
  assert.deepEqual(usageOfBody('openai-responses', { usage: { input_tokens: 5, output_tokens: 6 } }), { inputTokens: 5, outputTokens: 6, cacheReadTokens: 0, cacheWriteTokens: 0 });
  assert.equal(usageOfBody('openai-completions', { choices: [] }), null);
  assert.equal(usageOfBody('openai-completions', null), null);
});
