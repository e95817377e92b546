// The answer to a call a cap budget refused. Verified on the gateway
// (docs/gateway-facts.md, "Provider refusals"): a 402, or a 429 that mentions
// quota, disables the provider for every agent using it for about 10 minutes,
// and a neutral 429 is retried up to 9 times. So a refusal is a normal,
// successful completion in the caller's API and stream mode: HTTP 200, one
// short text naming the budget, a normal finish reason, no tool calls, zero
// usage. The run then ends on its own (and svc halts it), and the provider
// stays usable for the next call.

import type { RoutedApi } from '../model-routing/registry.ts';
import { providerSse } from './provider-sse.ts';

export interface RefusalAnswer {
  contentType: string;
  body: string;
}

/** The refusal's text: names the budget and its cap (`capText` of shared/budgets, e.g. `$12.50`). */
export function refusalText(budgetLabel: string, cap: string): string {
  return `svc stopped this call: the ${budgetLabel} budget reached its cap of ${cap}. Resume it in svc to continue.`;
}

// Each shape follows the real API's answer field for field and event for
// event (the official `openai` and `@anthropic-ai/sdk` stream helpers rebuild
// the answer from the events and fail on a missing one; test/http/
// model-endpoint-sdks.test.ts runs them against every shape):
//   completions  role chunk, text chunk, finish chunk, usage chunk, [DONE]
//   messages     message_start, content_block_start, content_block_delta,
//                content_block_stop, message_delta, message_stop
//   responses    response.created, response.in_progress, output_item.added,
//                content_part.added, output_text.delta, output_text.done,
//                content_part.done, output_item.done, response.completed,
//                numbered by `sequence_number`; no [DONE]


function completions(id: string, model: string, text: string, stream: boolean, created: number): RefusalAnswer {
  const usage = {
    prompt_tokens: 0, completion_tokens: 0, total_tokens: 0,
    prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 },
  };
  const head = { id, created, model, system_fingerprint: null };
  if (!stream) {
    return {
      contentType: 'application/json',
      body: JSON.stringify({
        ...head, object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
        usage,
      }),
    };
  }
  const chunk = (choices: unknown[], extra: object = {}) => ({ data: { ...head, object: 'chat.completion.chunk', choices, ...extra } });
  const choice = (delta: object, finish: string | null) => ({ index: 0, delta, logprobs: null, finish_reason: finish });
  return {
    contentType: 'text/event-stream',
    body: providerSse(
      [
        chunk([choice({ role: 'assistant', content: '', refusal: null }, null)]),
        chunk([choice({ content: text }, null)]),
        chunk([choice({}, 'stop')]),
        chunk([], { usage }),
      ],
      true,
    ),
  };
}

function messages(id: string, model: string, text: string, stream: boolean): RefusalAnswer {
  const usage = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
  const message = { id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage };
  if (!stream) return { contentType: 'application/json', body: JSON.stringify(message) };
  const ev = (event: string, data: object) => ({ event, data: { type: event, ...data } });
  return {
    contentType: 'text/event-stream',
    body: providerSse([
      ev('message_start', { message: { ...message, content: [], stop_reason: null } }),
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 0 } }),
      ev('message_stop', {}),
    ]),
  };
}

function responses(id: string, model: string, text: string, stream: boolean, created: number): RefusalAnswer {
  const part = { type: 'output_text', annotations: [], logprobs: [], text };
  const item = { id: `msg_${id}`, type: 'message', role: 'assistant', status: 'completed', content: [part] };
  const usage = { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };
  const response = {
    id, object: 'response', created_at: created, status: 'completed', error: null, incomplete_details: null,
    instructions: null, max_output_tokens: null, model, output: [item], parallel_tool_calls: true, previous_response_id: null,
    reasoning: { effort: null, summary: null }, store: false, temperature: null, text: { format: { type: 'text' } },
    tool_choice: 'auto', tools: [], top_p: null, truncation: 'disabled', usage, user: null, metadata: {},
  };
  if (!stream) return { contentType: 'application/json', body: JSON.stringify(response) };
  let seq = 0;
  const ev = (event: string, data: object) => ({ event, data: { type: event, sequence_number: seq++, ...data } });
  const at = { item_id: item.id, output_index: 0, content_index: 0 };
  const started = { ...response, status: 'in_progress', output: [], usage: null };
  return {
    contentType: 'text/event-stream',
    body: providerSse([
      ev('response.created', { response: started }),
      ev('response.in_progress', { response: started }),
      ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
      ev('response.content_part.added', { ...at, part: { ...part, text: '' } }),
      ev('response.output_text.delta', { ...at, delta: text, logprobs: [] }),
      ev('response.output_text.done', { ...at, text, logprobs: [] }),
      ev('response.content_part.done', { ...at, part }),
      ev('response.output_item.done', { output_index: 0, item }),
      ev('response.completed', { response }),
    ]),
  };
}

/** The refusal in `api`'s shape, streamed when the caller asked for a stream. */
export function refusalAnswer(api: RoutedApi, opts: { id: string; model: string | null; stream: boolean; text: string; nowMs: number }): RefusalAnswer {
  const model = opts.model ?? 'unknown';
  const created = Math.floor(opts.nowMs / 1000);
  if (api === 'openai-completions') return completions(`chatcmpl-${opts.id}`, model, opts.text, opts.stream, created);
  if (api === 'anthropic-messages') return messages(`msg_${opts.id}`, model, opts.text, opts.stream);
  return responses(`resp_${opts.id}`, model, opts.text, opts.stream, created);
}
