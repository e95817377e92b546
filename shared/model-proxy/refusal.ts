// The answer to a call a cap budget refused. Verified on the gateway (RECIPE
// §10): a 402, or a 429 that mentions quota, disables the provider for every
// agent using it for about 10 minutes, and a neutral 429 is retried up to 9
// times. So a refusal is a normal, successful completion in the caller's API
// and stream mode: HTTP 200, one short text naming the budget, a normal
// finish reason, no tool calls, zero usage. The run then ends on its own
// (and svc halts it), and the provider stays usable for the next call.

import type { RoutedApi } from '../model-routing/registry.ts';

export interface RefusalAnswer {
  contentType: string;
  body: string;
}

/** The refusal's text: names the budget and its cap (`capText` of shared/budgets, e.g. `$12.50`). */
export function refusalText(budgetLabel: string, cap: string): string {
  return `svc stopped this call: the ${budgetLabel} budget reached its cap of ${cap}. Resume it in svc to continue.`;
}

const sse = (events: Array<{ event?: string; data: unknown }>, done = false) =>
  events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');

function completions(id: string, model: string, text: string, stream: boolean, created: number): RefusalAnswer {
  const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  if (!stream) {
    return {
      contentType: 'application/json',
      body: JSON.stringify({
        id, object: 'chat.completion', created, model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage,
      }),
    };
  }
  const chunk = (choices: unknown[], extra: object = {}) => ({ data: { id, object: 'chat.completion.chunk', created, model, choices, ...extra } });
  return {
    contentType: 'text/event-stream',
    body: sse(
      [
        chunk([{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }]),
        chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
        chunk([], { usage }),
      ],
      true,
    ),
  };
}

function messages(id: string, model: string, text: string, stream: boolean): RefusalAnswer {
  const usage = { input_tokens: 0, output_tokens: 0 };
  if (!stream) {
    return {
      contentType: 'application/json',
      body: JSON.stringify({
        id, type: 'message', role: 'assistant', model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn', stop_sequence: null, usage,
      }),
    };
  }
  const ev = (event: string, data: object) => ({ event, data: { type: event, ...data } });
  return {
    contentType: 'text/event-stream',
    body: sse([
      ev('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } }),
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 0 } }),
      ev('message_stop', {}),
    ]),
  };
}

function responses(id: string, model: string, text: string, stream: boolean, created: number): RefusalAnswer {
  const item = { id: `msg_${id}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  const usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  const response = { id, object: 'response', created_at: created, status: 'completed', model, output: [item], usage };
  if (!stream) return { contentType: 'application/json', body: JSON.stringify(response) };
  const ev = (event: string, data: object) => ({ event, data: { type: event, ...data } });
  return {
    contentType: 'text/event-stream',
    body: sse([
      ev('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } }),
      ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
      ev('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: text }),
      ev('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text }),
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
