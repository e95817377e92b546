// A call's token usage, read on the side of the pass-through: from the SSE
// lines as they stream by (never holding the stream back), or from a JSON
// body. Per API:
//   openai-completions  the final chunk's `usage` (prompt_tokens includes
//                       prompt_tokens_details.cached_tokens)
//   anthropic-messages  message_start.message.usage, then message_delta.usage
//                       (cumulative output); input_tokens excludes the cache
//                       read/creation tokens, which are billed as input too
//   openai-responses    response.completed's response.usage (input_tokens
//                       includes input_tokens_details.cached_tokens)
// `inputTokens` is what is billed as input: cache tokens are counted in it,
// and kept apart too (priced at the cache prices where the gateway's config
// has them, else at the input price: shared/pricing).
// Streamed text is counted in characters for a stream that ends before its
// usage comes (a cut or an abort).
import type { RoutedApi } from '../model-routing/registry.ts';

export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0);

function openAiUsage(u: Obj): CallUsage {
  const details = obj(u.prompt_tokens_details) ?? obj(u.input_tokens_details);
  return {
    inputTokens: n(u.prompt_tokens ?? u.input_tokens),
    outputTokens: n(u.completion_tokens ?? u.output_tokens),
    cacheReadTokens: n(details?.cached_tokens),
    cacheWriteTokens: 0,
  };
}

function anthropicUsage(u: Obj, prev: CallUsage | null): CallUsage {
  // message_delta carries the cumulative output and, on some versions, the input again.
  const cacheRead = u.cache_read_input_tokens !== undefined ? n(u.cache_read_input_tokens) : (prev?.cacheReadTokens ?? 0);
  const cacheWrite = u.cache_creation_input_tokens !== undefined ? n(u.cache_creation_input_tokens) : (prev?.cacheWriteTokens ?? 0);
  const input = u.input_tokens !== undefined ? n(u.input_tokens) + cacheRead + cacheWrite : (prev?.inputTokens ?? 0);
  return {
    inputTokens: input,
    outputTokens: u.output_tokens !== undefined ? n(u.output_tokens) : (prev?.outputTokens ?? 0),
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

/** A provider's model name is kept to this length (it is the caller's to read, not svc's to store without bound). */
const MAX_MODEL_CHARS = 200;

/** The model the provider says answered: the answer's top-level `model` (all three APIs), or null. */
export function modelOfBody(body: unknown): string | null {
  const m = obj(body)?.model;
  return typeof m === 'string' && m !== '' ? m.slice(0, MAX_MODEL_CHARS) : null;
}

/** Usage from a non-streamed JSON answer; null when it carries none. */
export function usageOfBody(api: RoutedApi, body: unknown): CallUsage | null {
  const u = obj(obj(body)?.usage);
  if (!u) return null;
  return api === 'anthropic-messages' ? anthropicUsage(u, null) : openAiUsage(u);
}

const textLength = (v: unknown): number => (typeof v === 'string' ? v.length : 0);

/** Reads an SSE stream's usage and streamed text as bytes pass; feed() never throws. */
export class SseUsageReader {
  usage: CallUsage | null = null;
  /** Characters of streamed output (text, tool arguments, thinking). */
  outputChars = 0;
  /** The stream's last event was seen ([DONE], message_stop, response.completed…): the answer is whole. */
  ended = false;
  /** The model the provider says answered, from the first event that names it (gen_ai.response.model). */
  responseModel: string | null = null;
  private buf = '';
  private readonly decoder = new TextDecoder();

  /** `observe` sees every parsed event too (a StreamCut keeps what a cut must close). */
  constructor(
    private readonly api: RoutedApi,
    private readonly observe: ((event: Obj) => void) | null = null,
  ) {}

  feed(chunk: Uint8Array): void {
    this.buf += this.decoder.decode(chunk, { stream: true });
    let i: number;
    while ((i = this.buf.indexOf('\n')) !== -1) {
      const line = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + 1);
      if (line.startsWith('data:')) this.onData(line.slice(5).trim());
    }
  }

  private onData(text: string): void {
    if (text === '[DONE]') this.ended = true;
    if (text === '' || text === '[DONE]') return;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      // A provider's keep-alive or a line this reader does not know: the
      // bytes still went to the caller; only usage is read here.
      return;
    }
    const d = obj(v);
    if (!d) return;
    this.onEvent(d);
    this.observe?.(d);
  }

  private onEvent(d: Obj): void {
    // Chat chunks name it at the top, Anthropic's message_start in its message, Responses events in their response.
    this.responseModel ??= modelOfBody(d) ?? modelOfBody(d.message) ?? modelOfBody(d.response);
    if (this.api === 'openai-completions') {
      const u = obj(d.usage);
      if (u) this.usage = openAiUsage(u);
      if (Array.isArray(d.choices)) {
        for (const c of d.choices) {
          const delta = obj(obj(c)?.delta);
          if (!delta) continue;
          this.outputChars += textLength(delta.content) + textLength(delta.reasoning_content);
          if (Array.isArray(delta.tool_calls)) for (const t of delta.tool_calls) this.outputChars += textLength(obj(obj(t)?.function)?.arguments);
        }
      }
      return;
    }
    if (this.api === 'anthropic-messages') {
      if (d.type === 'message_stop') this.ended = true;
      else if (d.type === 'message_start') {
        const u = obj(obj(d.message)?.usage);
        if (u) this.usage = anthropicUsage(u, this.usage);
      } else if (d.type === 'message_delta') {
        const u = obj(d.usage);
        if (u) this.usage = anthropicUsage(u, this.usage);
      } else if (d.type === 'content_block_delta') {
        const delta = obj(d.delta);
        this.outputChars += textLength(delta?.text) + textLength(delta?.partial_json) + textLength(delta?.thinking);
      }
      return;
    }
    if (d.type === 'response.completed' || d.type === 'response.incomplete' || d.type === 'response.failed') {
      this.ended = true;
      const u = obj(obj(d.response)?.usage);
      if (u) this.usage = openAiUsage(u);
    } else if (typeof d.type === 'string' && d.type.endsWith('.delta')) {
      this.outputChars += textLength(d.delta);
    }
  }
}
