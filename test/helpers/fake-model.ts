// A fake OpenAI-compatible model provider on 127.0.0.1, for tests that run a
// real gateway: the model is the one external, paid part, so it is the one
// part faked. Deterministic; what it answers depends on the text it was sent
// (see commandOf):
//   `TOOL: <name> <json>`  calls the offered tool named `<name>` (or
//                          `<server>__<name>`, an MCP tool) with `<json>` as
//                          its arguments, then, once the result is back,
//                          answers `Tool said: <result text>`; no such tool:
//                          `NO TOOL <name>`.
//   `LOOP: <name> <json>`  calls that tool with those arguments on every
//                          request of the turn, whatever came back: a
//                          runaway model (svc's endpoint ends it).
//   `TOOL@<agent>: ...`,   the same, but only in a run of gateway agent
//   `LOOP@<agent>: ...`    `<agent>` (the Runtime line's `agent=`); any
//                          other agent's run echoes it (a spawned child or an
//                          announce run that quotes it does not loop).
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
// How a request is read (the gateway's wrapping, svc's `[Message]` marker):
// fake-model-prompts.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { holdsOnce, promptCharsOf, promptOf, replyTo, runtimeAgentOf, toolResultsOf, type FakeReply } from './fake-model-prompts.ts';
import { deadline } from './wait.ts';

export const FAKE_MODEL_ID = 'fake-model';
/** Pace of an unheld stream: enough for the gateway to emit several deltas. */
const WORD_STEP_MS = 10;

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
    const answer = replyTo(prompt, tools, toolResultsOf(body.messages), runtimeAgentOf(body.messages));
    const { reply } = answer;
    const slow = answer.slow && holdsOnce(prompt, slowSeen);
    const promptChars = promptCharsOf(body.messages);
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
