// A fake OpenAI-compatible model provider on 127.0.0.1, for tests that run a
// real gateway: the model is the one external, paid part, so it is the one
// part faked. Deterministic; what it answers depends on the text it was sent
// (see commandOf):
//   `TOOL: <name> <json>`  calls the offered tool named `<name>` (or
//                          `<server>__<name>`, an MCP tool) with `<json>` as
//                          its arguments, then, once the result is back,
//                          answers `Tool said: <result text>`; no such tool:
//                          `NO TOOL <name>`.
//   a line `SLOW: ...`     answers `ECHO: <text>` like any text, but holds the
//                          stream after its first word until the test calls
//                          release(), so a test can act mid-run. A SLOW line
//                          holds once: a later prompt that quotes it (the
//                          gateway resuming a turn a restart cut off, a
//                          reply echoed on) streams at once.
//   anything else          `ECHO: <text>`, streamed word by word.
// Usage is computed from sizes (prompt characters / 4, completion characters
// / 4, rounded up), so a priced model gives a non-zero, checkable cost.
//
// The gateway wraps the user's text as "[<date>] <text>\n\nRuntime: ..." and
// appends a synthetic user message between OpenClaw's internal-context
// markers; both are stripped to find the text that was sent. svc's team chat
// sends "<preamble>\n\n[Message]\n<message>": only what follows the last
// `[Message]\n` is read.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deadline } from './wait.ts';

export const FAKE_MODEL_ID = 'fake-model';
const INTERNAL = /<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>[\s\S]*?<<<END_OPENCLAW_INTERNAL_CONTEXT>>>/g;
const MESSAGE_MARKER = '[Message]\n';
/** Pace of an unheld stream: enough for the gateway to emit several deltas. */
const WORD_STEP_MS = 10;

/** What one model request was answered with. */
export type FakeReply = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

export interface FakeRequest {
  /** The text acted on (after the `[Message]` marker). */
  prompt: string;
  /** The names of the tools the request offered. */
  tools: string[];
  /** The `model` the gateway asked for. */
  model: string;
  reply: FakeReply;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** `held` while a SLOW stream waits at the gate; `closed` when the gateway closed it before its end (an abort). */
  state: 'streaming' | 'held' | 'done' | 'closed';
}

export interface FakeModel {
  /** Base URL for the provider config (`http://127.0.0.1:<port>/v1`). */
  url: string;
  /** The prompts received, in order (after stripping the gateway's wrapping and svc's preamble). */
  prompts: string[];
  /** Every chat-completions request, in order, with what it was answered. */
  requests: FakeRequest[];
  /** SLOW streams waiting at the gate now. */
  held(): FakeRequest[];
  /** Resolves once at least `count` SLOW streams wait at the gate (default 1); the deadline only stops a hang. */
  untilHeld(count?: number, timeoutMs?: number): Promise<FakeRequest[]>;
  /** Lets every SLOW stream waiting now run to its end; later SLOW streams are held again. Returns how many went. */
  release(): number;
  close(): Promise<void>;
}

interface ChatMessage {
  role?: unknown;
  content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) => (typeof p === 'string' ? p : typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : ''))
    .filter(Boolean)
    .join('\n');
}

const isInternal = (m: ChatMessage): boolean => m?.role === 'user' && textOf(m.content).replace(INTERNAL, '').trim() === '';

/**
 * The text sent with the last real user message of a chat-completions
 * request: the gateway's date prefix and Runtime line removed, and when svc's
 * `[Message]` marker is there, only what follows the last one.
 */
export function promptOf(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m?.role !== 'user') continue;
    const text = textOf(m.content).replace(INTERNAL, '').trim();
    if (!text) continue;
    const sent = text.split(/\n\nRuntime: /)[0] ?? '';
    const marker = sent.lastIndexOf(MESSAGE_MARKER);
    if (marker >= 0) return sent.slice(marker + MESSAGE_MARKER.length).trim();
    return sent.replace(/^\[[^\]]*\]\s*/, '').trim();
  }
  return '';
}

/** The tool results that came back since the last real user message (the gateway's internal-context message is not one). */
export function toolResultsOf(messages: unknown): string[] {
  const out: string[] = [];
  if (!Array.isArray(messages)) return out;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m?.role === 'tool') out.unshift(textOf(m.content));
    else if (m?.role === 'user' && !isInternal(m)) break;
  }
  return out;
}

export type FakeCommand =
  | { kind: 'tool'; name: string; args: Record<string, unknown> }
  | { kind: 'slow'; text: string }
  | { kind: 'echo'; text: string };

/**
 * What a prompt asks for: `TOOL: <name> <json>` as its first line (the JSON
 * may run over the following lines; not an object: `{ raw: <text> }`), a
 * line starting `SLOW:` anywhere (a delegated task's description can make
 * the assignee's run slow), else an echo.
 */
export function commandOf(prompt: string): FakeCommand {
  const tool = /^TOOL:[ \t]*(\S+)[ \t]*([\s\S]*)$/.exec(prompt);
  if (tool) {
    const raw = (tool[2] ?? '').trim();
    let args: Record<string, unknown> = {};
    if (raw !== '') {
      try {
        const v: unknown = JSON.parse(raw);
        args = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { raw };
      } catch {
        // Not JSON: the tool gets the text as it is, so a test sees what was sent.
        args = { raw };
      }
    }
    return { kind: 'tool', name: tool[1] as string, args };
  }
  if (/^SLOW:/m.test(prompt)) return { kind: 'slow', text: prompt };
  return { kind: 'echo', text: prompt };
}

/** The offered tool `wanted` names: itself, else an MCP tool `<server>__<wanted>`. */
export function findTool(offered: readonly string[], wanted: string): string | undefined {
  return offered.find((n) => n === wanted) ?? offered.find((n) => n.endsWith(`__${wanted}`));
}

const UNTRUSTED_START = '<<<EXTERNAL_UNTRUSTED_CONTENT';
const UNTRUSTED_END = '<<<END_EXTERNAL_UNTRUSTED_CONTENT';

/**
 * The payload of a tool result as the gateway hands it to the model:
 * "SECURITY NOTICE ... <<<EXTERNAL_UNTRUSTED_CONTENT id=...>>>\nSource: ...\n---\n<payload>\n<<<END_EXTERNAL_UNTRUSTED_CONTENT ...>>>".
 * A payload that is an MCP result (`{ content: [{ text }] }`, or wrapped as
 * `{ result: { content } }`) gives its texts. Unwrapped text is returned as it is.
 */
export function unwrapToolResult(text: string): string {
  let inner = text;
  const start = text.indexOf(UNTRUSTED_START);
  const end = text.indexOf(UNTRUSTED_END, start + 1);
  if (start >= 0 && end > start) {
    const body = text.slice(text.indexOf('>>>', start) + 3, end);
    const sep = body.indexOf('\n---\n');
    inner = (sep >= 0 ? body.slice(sep + 5) : body).trim();
  }
  try {
    const v = JSON.parse(inner) as { content?: unknown; result?: { content?: unknown } } | null;
    const content = v?.result?.content ?? v?.content;
    if (Array.isArray(content)) return content.map((c: unknown) => String((c as { text?: unknown })?.text ?? '')).join(' ');
  } catch {
    // Not JSON: the payload is the text itself.
  }
  return inner;
}

/** Whether a SLOW prompt holds: only when one of its SLOW lines was never seen before (`seen` gets them all). */
export function holdsOnce(prompt: string, seen: Set<string>): boolean {
  const lines = prompt.split('\n').filter((l) => l.startsWith('SLOW:'));
  const fresh = lines.some((l) => !seen.has(l));
  for (const l of lines) seen.add(l);
  return fresh;
}

/** The answer to one request; `slow` when its stream waits at the gate. */
export function replyTo(prompt: string, offered: readonly string[], toolResults: readonly string[]): { reply: FakeReply; slow: boolean } {
  const cmd = commandOf(prompt);
  if (cmd.kind === 'tool') {
    const name = findTool(offered, cmd.name);
    if (!name) return { reply: { text: `NO TOOL ${cmd.name}` }, slow: false };
    if (toolResults.length === 0) return { reply: { toolCall: { name, arguments: cmd.args } }, slow: false };
    const said = toolResults.map(unwrapToolResult).join(' | ').replace(/\s+/g, ' ').trim();
    return { reply: { text: `Tool said: ${said}` }, slow: false };
  }
  return { reply: { text: `ECHO: ${cmd.text}` }, slow: cmd.kind === 'slow' };
}

/** A promise the test opens (Node 20 has no Promise.withResolvers). */
function newGate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const tokensOf = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      try {
        const v: unknown = raw ? JSON.parse(raw) : {};
        resolve(v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
      } catch {
        // Not JSON: answered as an empty request (the reply is then "ECHO: ").
        resolve({});
      }
    });
  });
}

function offeredTools(body: Record<string, unknown>): string[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools
    .map((t: unknown) => (t as { function?: { name?: unknown }; name?: unknown })?.function?.name ?? (t as { name?: unknown })?.name)
    .filter((n): n is string => typeof n === 'string');
}

export async function startFakeModel(): Promise<FakeModel> {
  const prompts: string[] = [];
  const requests: FakeRequest[] = [];
  /** SLOW lines that have held a stream already. */
  const slowSeen = new Set<string>();
  let gate = newGate();
  const heldWaiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...heldWaiters]) w();
  };

  function complete(body: Record<string, unknown>, res: ServerResponse): void {
    const prompt = promptOf(body.messages);
    prompts.push(prompt);
    const tools = offeredTools(body);
    const answer = replyTo(prompt, tools, toolResultsOf(body.messages));
    const { reply } = answer;
    const slow = answer.slow && holdsOnce(prompt, slowSeen);
    const promptChars = Array.isArray(body.messages) ? body.messages.reduce((n: number, m: unknown) => n + textOf((m as ChatMessage)?.content).length, 0) : 0;
    const completionChars = 'text' in reply ? reply.text.length : JSON.stringify(reply.toolCall).length;
    const usage = { prompt_tokens: tokensOf(promptChars), completion_tokens: tokensOf(completionChars), total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const model = typeof body.model === 'string' ? body.model : FAKE_MODEL_ID;
    const record: FakeRequest = { prompt, tools, model, reply, usage, state: 'streaming' };
    requests.push(record);

    const id = `chatcmpl-fake-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const toolCall = 'toolCall' in reply
      ? { id: `call_fake_${requests.length}`, type: 'function', function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) } }
      : null;
    const finishReason = toolCall ? 'tool_calls' : 'stop';
    if (body.stream !== true) {
      const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: 'text' in reply ? reply.text : '' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finishReason }], usage }));
      record.state = 'done';
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // The gateway closing the stream before its end is an abort (chat.abort, a killed gateway).
    res.on('close', () => {
      if (record.state === 'done') return;
      record.state = 'closed';
      notify();
    });
    const send = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
    const chunk = (delta: unknown, finish: string | null = null) =>
      send({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
    const finish = () => {
      chunk({}, finishReason);
      send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage }); // include_usage
      record.state = 'done';
      res.end('data: [DONE]\n\n');
    };
    chunk({ role: 'assistant', content: '' });
    if (toolCall) {
      chunk({ tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: '' } }] });
      chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] });
      finish();
      return;
    }
    const words = ('text' in reply ? reply.text : '').split(/(\s+)/).filter((w) => w.length > 0);
    let i = 0;
    const next = () => {
      if (record.state === 'closed') return;
      if (i < words.length) {
        chunk({ content: words[i++] });
        if (slow && i === 1) {
          record.state = 'held';
          const opened = gate.promise;
          notify();
          void opened.then(() => {
            if (record.state !== 'held') return;
            record.state = 'streaming';
            next();
          });
          return;
        }
        setTimeout(next, WORD_STEP_MS);
        return;
      }
      finish();
    };
    next();
  }

  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method === 'GET' && path.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: FAKE_MODEL_ID, object: 'model', created: 0, owned_by: 'fake' }] }));
        return;
      }
      if (req.method === 'POST' && path.endsWith('/chat/completions')) {
        complete(body, res);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model: no route ${req.method ?? ''} ${path}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const held = () => requests.filter((r) => r.state === 'held');
  return {
    url: `http://127.0.0.1:${port}/v1`,
    prompts,
    requests,
    held,
    untilHeld(count = 1, timeoutMs) {
      let waiter: (() => void) | undefined;
      const reached = new Promise<FakeRequest[]>((resolve) => {
        waiter = () => {
          if (held().length < count) return;
          heldWaiters.delete(waiter as () => void);
          resolve(held());
        };
        heldWaiters.add(waiter);
        waiter();
      });
      return deadline(reached, { what: `${count} SLOW model stream(s) to wait at the gate (held now: ${held().length})`, timeoutMs }).finally(() => {
        if (waiter) heldWaiters.delete(waiter);
      });
    },
    release() {
      const n = held().length;
      const opened = gate;
      gate = newGate();
      opened.open();
      return n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
