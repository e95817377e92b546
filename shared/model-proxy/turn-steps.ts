// The current turn of a conversation as svc's model endpoint receives it:
// every model call's request body carries the conversation so far, so the
// calls the turn has made and the tool calls they asked for can be read from
// the body alone, in each API the endpoint speaks:
//   openai-completions   `messages`: assistant `tool_calls`, `role: 'tool'` results
//   anthropic-messages   `messages`: `tool_use` blocks, `tool_result` blocks in a user message
//   openai-responses     `input`: `function_call` / `function_call_output` items
// The turn starts after the last real user message. Not real: a user message
// that holds only tool results (Anthropic's), or only OpenClaw's
// internal-context block (the gateway appends one, often after the latest
// tool result, call-context.ts); treating either as real would restart the
// count on every call.
import type { RoutedApi } from '../model-routing/registry.ts';

/** One model call of the turn that the body shows: the tool calls it asked for and what came back. */
export interface TurnStep {
  calls: Array<{ id: string | null; name: string; args: string }>;
  /** Result text per call, in the calls' order (`''` when none came back). */
  results: string[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** JSON with object keys sorted, so the same arguments spelled in another order compare equal. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = obj(v);
  if (o) return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Arguments as the model sent them (a JSON string or an object), in one comparable spelling. */
function argsKey(v: unknown): string {
  if (typeof v !== 'string') return stableJson(v ?? {});
  try {
    return stableJson(JSON.parse(v));
  } catch {
    // Not JSON: compared as the text the model wrote.
    return v;
  }
}

const INTERNAL = /<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>[\s\S]*?<<<END_OPENCLAW_INTERNAL_CONTEXT>>>/g;
// OpenClaw wraps external tool output between markers with a fresh random id
// per call, and (its loop detection on) appends a warning with a count: left
// in, neither would let two identical results compare equal.
const MARKER_ID = /(<<<(?:END_)?EXTERNAL_UNTRUSTED_CONTENT id=\\*")[0-9a-f]{16}(\\*">>>)/g;
const LOOP_WARNING = /\[System note: Tool-loop warning after \d+ repeated calls\.[^\]]*\]/g;

const normText = (s: string): string => s.replace(MARKER_ID, '$10000000000000000$2').replace(LOOP_WARNING, '').trim();

/** A tool result's content (a string or blocks) as comparable text. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return normText(content);
  if (!Array.isArray(content)) return content === undefined ? '' : stableJson(content);
  return content
    .map((p) => {
      const text = str(obj(p)?.text);
      return text !== null ? normText(text) : stableJson(p);
    })
    .join('\n');
}

/** Whether a user message's content is something a person (or svc's team chat) sent. */
function isRealUserContent(content: unknown): boolean {
  if (typeof content === 'string') return content.replace(INTERNAL, '').trim() !== '';
  if (!Array.isArray(content)) return false;
  return content.some((p) => {
    const part = obj(p);
    if (part === null) return typeof p === 'string' && p.replace(INTERNAL, '').trim() !== '';
    if (part.type === 'tool_result') return false;
    const text = str(part.text);
    // An image or a file counts; an empty or internal-only text part does not.
    return text === null ? true : text.replace(INTERNAL, '').trim() !== '';
  });
}

/** A conversation reduced to what the rule needs. */
type Item =
  | { k: 'user' }
  | { k: 'call'; id: string | null; name: string; args: string }
  /**
   * Assistant output. `fresh`: it starts a model call (each assistant message
   * of the chat APIs is one answer); a Responses item joins the answer it
   * follows (one answer is several items: reasoning, text, calls).
   */
  | { k: 'said'; fresh: boolean }
  | { k: 'result'; id: string | null; text: string };

function completionsItems(messages: unknown[]): Item[] {
  const out: Item[] = [];
  for (const raw of messages) {
    const m = obj(raw);
    if (m === null) continue;
    if (m.role === 'user' && isRealUserContent(m.content)) out.push({ k: 'user' });
    else if (m.role === 'assistant') {
      out.push({ k: 'said', fresh: true });
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      for (const c of calls) {
        const fn = obj(obj(c)?.function);
        out.push({ k: 'call', id: str(obj(c)?.id), name: str(fn?.name) ?? '', args: argsKey(fn?.arguments) });
      }
    } else if (m.role === 'tool') out.push({ k: 'result', id: str(m.tool_call_id), text: resultText(m.content) });
  }
  return out;
}

function anthropicItems(messages: unknown[]): Item[] {
  const out: Item[] = [];
  for (const raw of messages) {
    const m = obj(raw);
    if (m === null) continue;
    const blocks = Array.isArray(m.content) ? m.content.map(obj) : [];
    if (m.role === 'user') {
      for (const b of blocks) {
        if (b?.type === 'tool_result') out.push({ k: 'result', id: str(b.tool_use_id), text: `${b.is_error === true ? 'error:' : ''}${resultText(b.content)}` });
      }
      if (isRealUserContent(m.content)) out.push({ k: 'user' });
    } else if (m.role === 'assistant') {
      out.push({ k: 'said', fresh: true });
      for (const b of blocks.filter((x) => x?.type === 'tool_use')) out.push({ k: 'call', id: str(b?.id), name: str(b?.name) ?? '', args: argsKey(b?.input) });
    }
  }
  return out;
}

function responsesItems(input: unknown[]): Item[] {
  const out: Item[] = [];
  for (const raw of input) {
    const m = obj(raw);
    if (m === null) continue;
    if (m.type === 'function_call') out.push({ k: 'call', id: str(m.call_id), name: str(m.name) ?? '', args: argsKey(m.arguments) });
    else if (m.type === 'function_call_output') out.push({ k: 'result', id: str(m.call_id), text: resultText(m.output) });
    else if (m.role === 'user' && isRealUserContent(m.content)) out.push({ k: 'user' });
    else if (m.role === 'assistant' || m.type === 'reasoning') out.push({ k: 'said', fresh: false });
  }
  return out;
}

function itemsOf(api: RoutedApi, body: Obj): Item[] {
  if (api === 'openai-responses') {
    if (typeof body.input === 'string') return [{ k: 'user' }];
    return Array.isArray(body.input) ? responsesItems(body.input) : [];
  }
  if (!Array.isArray(body.messages)) return [];
  return api === 'anthropic-messages' ? anthropicItems(body.messages) : completionsItems(body.messages);
}

/**
 * The model calls of the current turn that the body shows, oldest first: one
 * per assistant message (chat APIs) or per run of output items between tool
 * results (Responses), each with the results that came back before the next.
 */
export function turnSteps(api: RoutedApi, body: Obj): TurnStep[] {
  const items = itemsOf(api, body);
  let start = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]?.k === 'user') {
      start = i + 1;
      break;
    }
  }
  const steps: Array<{ calls: TurnStep['calls']; byId: Map<string, string>; inOrder: string[] }> = [];
  let open = false;
  for (const item of items.slice(start)) {
    if (item.k === 'user') continue;
    if (item.k === 'result') {
      open = false;
      const last = steps[steps.length - 1];
      if (!last) continue;
      if (item.id !== null) last.byId.set(item.id, item.text);
      last.inOrder.push(item.text);
      continue;
    }
    if (!open || (item.k === 'said' && item.fresh)) steps.push({ calls: [], byId: new Map(), inOrder: [] });
    open = true;
    if (item.k === 'call') steps[steps.length - 1]?.calls.push({ id: item.id, name: item.name, args: item.args });
  }
  return steps.map((s) => ({
    calls: s.calls,
    results: s.calls.map((c, i) => (c.id !== null && s.byId.has(c.id) ? (s.byId.get(c.id) as string) : (s.inOrder[i] ?? ''))),
  }));
}
