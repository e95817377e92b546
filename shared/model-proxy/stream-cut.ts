// Ending a streamed answer early, at a cap, as a normal finish in the
// caller's API (docs/budgets.md "The bound"): the caller's client sees an
// answer that stopped at its length limit, never a broken stream, so the
// official SDKs' stream helpers return it as a result. A StreamCut watches
// the events that pass (as SseUsageReader parses them) for what the closing
// events must name: the answer's id and model, the choices, Anthropic's open
// content blocks, and the Responses output so far (its closing event carries
// the whole response, which replaces what the client has accumulated).
import type { RoutedApi } from '../model-routing/registry.ts';
import { providerSse } from './provider-sse.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const frame = (data: unknown, event?: string): string => providerSse([{ ...(event ? { event } : {}), data }]);

export class StreamCut {
  private id = '';
  private model = '';
  private created = 0;
  private choices = new Set<number>();
  private openBlocks = new Set<number>();
  private outputTokens = 0;
  private response: Obj | null = null;
  private output: Obj[] = [];
  private sequence = 0;

  constructor(private readonly api: RoutedApi) {}

  /** One parsed event of the stream (SseUsageReader's observer). */
  see(d: Obj): void {
    if (this.api === 'openai-completions') return this.seeCompletions(d);
    if (this.api === 'anthropic-messages') return this.seeMessages(d);
    this.seeResponses(d);
  }

  private seeCompletions(d: Obj): void {
    this.id ||= str(d.id);
    this.model ||= str(d.model);
    if (typeof d.created === 'number') this.created = d.created;
    if (!Array.isArray(d.choices)) return;
    for (const c of d.choices) {
      const index = obj(c)?.index;
      if (typeof index !== 'number') continue;
      if (obj(c)?.finish_reason) this.choices.delete(index);
      else this.choices.add(index);
    }
  }

  private seeMessages(d: Obj): void {
    const index = d.index;
    if (d.type === 'content_block_start' && typeof index === 'number') this.openBlocks.add(index);
    if (d.type === 'content_block_stop' && typeof index === 'number') this.openBlocks.delete(index);
    const usage = obj(d.usage) ?? obj(obj(d.message)?.usage);
    if (typeof usage?.output_tokens === 'number') this.outputTokens = usage.output_tokens;
  }

  private seeResponses(d: Obj): void {
    if (typeof d.sequence_number === 'number') this.sequence = d.sequence_number;
    const type = str(d.type);
    const at = typeof d.output_index === 'number' ? d.output_index : -1;
    if (type === 'response.created' || type === 'response.in_progress') this.response = obj(d.response) ?? this.response;
    else if ((type === 'response.output_item.added' || type === 'response.output_item.done') && obj(d.item)) {
      this.output[at] = { ...(obj(d.item) as Obj) };
    } else if (type === 'response.content_part.added' && this.output[at]) {
      const item = this.output[at] as Obj;
      const parts = Array.isArray(item.content) ? [...(item.content as unknown[])] : [];
      parts[Number(d.content_index) || 0] = { ...(obj(d.part) ?? { type: 'output_text', text: '' }) };
      item.content = parts;
    } else if (type === 'response.output_text.delta' && this.output[at]) {
      const part = obj((this.output[at]?.content as unknown[] | undefined)?.[Number(d.content_index) || 0]);
      if (part) part.text = str(part.text) + str(d.delta);
    } else if (type === 'response.function_call_arguments.delta' && this.output[at]) {
      const item = this.output[at] as Obj;
      item.arguments = str(item.arguments) + str(d.delta);
    }
  }

  /** The events that end the answer here with a normal, length-limited finish. */
  tail(): string {
    if (this.api === 'openai-completions') {
      const choices = [...(this.choices.size > 0 ? this.choices : new Set([0]))].map((index) => ({ index, delta: {}, finish_reason: 'length' }));
      return providerSse([{ data: { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices } }], true);
    }
    if (this.api === 'anthropic-messages') {
      const stops = [...this.openBlocks].map((index) => frame({ type: 'content_block_stop', index }, 'content_block_stop')).join('');
      return (
        stops +
        frame({ type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: this.outputTokens } }, 'message_delta') +
        frame({ type: 'message_stop' }, 'message_stop')
      );
    }
    const output = this.output.filter((x): x is Obj => x !== undefined).map((item) => ({ ...item, status: 'incomplete' }));
    const response = { ...(this.response ?? { object: 'response' }), status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output };
    return frame({ type: 'response.incomplete', sequence_number: this.sequence + 1, response }, 'response.incomplete');
  }
}
