// A small fake Anthropic Messages provider (and a minimal OpenAI Responses
// one) on 127.0.0.1, the second upstream behind svc's model endpoint in
// tests. Usage is computed from sizes, like fake-model.ts: input tokens =
// the request body's characters / 4, output = the answer's characters / 4
// (rounded up). What it answers depends on the last user message's text:
//   `HOLD: ...`     streams message_start and the first word, then holds
//                   until release()
//   `CUT: ...`      streams message_start and the first word, then destroys
//                   the socket (a provider cutting a stream)
//   `HTTP429: ...`  answers 429 with a rate-limit error body (retry-after: 1)
//   `HTTP402: ...`  answers 402 with a billing error body
//   anything else   `ECHO: <text>`, streamed word by word (or one JSON answer)
// Every request is recorded with its headers, so a test can check which
// credentials reached the provider.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deadline } from './wait.ts';

export interface FakeUpstreamRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  prompt: string;
  state: 'streaming' | 'held' | 'done' | 'closed' | 'cut';
}

export interface FakeAnthropic {
  /** Base URL as a gateway provider entry spells it (`http://127.0.0.1:<port>`; svc appends /v1/messages). */
  url: string;
  requests: FakeUpstreamRequest[];
  /** Resolves once `count` HOLD streams wait (default 1); the deadline only stops a hang. */
  untilHeld(count?: number): Promise<void>;
  /** Resolves once request `index` reached `state`. */
  untilState(index: number, state: FakeUpstreamRequest['state']): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

const tokensOf = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function lastUserText(body: Record<string, unknown>): string {
  const list = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : [];
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i] as { role?: unknown; content?: unknown };
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) return m.content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('\n');
  }
  return '';
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const requests: FakeUpstreamRequest[] = [];
  let gate: { promise: Promise<void>; open: () => void } = newGate();
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const until = (what: string, ok: () => boolean): Promise<void> => {
    let w: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => {
      w = () => {
        if (ok()) resolve();
      };
      waiters.add(w);
      w();
    });
    return deadline(reached, { what }).finally(() => waiters.delete(w as () => void));
  };

  function answer(rec: FakeUpstreamRequest, raw: string, res: ServerResponse): void {
    const { body, prompt } = rec;
    const responses = rec.path.endsWith('/responses');
    if (prompt.startsWith('HTTP429:')) {
      rec.state = 'done';
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'fake: slow down' } }));
      return;
    }
    if (prompt.startsWith('HTTP402:')) {
      rec.state = 'done';
      res.writeHead(402, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'billing_error', message: 'fake: insufficient credit' } }));
      return;
    }
    const text = `ECHO: ${prompt}`;
    const inputTokens = tokensOf(raw.length);
    const outputTokens = tokensOf(text.length);
    const model = typeof body.model === 'string' ? body.model : 'claude-sonnet-4-5';
    const n = requests.length;
    if (body.stream !== true) {
      rec.state = 'done';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          responses
            ? { id: `resp_${n}`, object: 'response', status: 'completed', model, output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }], usage: { input_tokens: inputTokens, output_tokens: outputTokens } }
            : { id: `msg_${n}`, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: { input_tokens: inputTokens, output_tokens: outputTokens } },
        ),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.on('close', () => {
      if (rec.state === 'done' || rec.state === 'cut') return;
      rec.state = 'closed';
      notify();
    });
    const ev = (type: string, data: object, cb?: () => void) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`, cb);
    const words = text.split(/(\s+)/).filter((w) => w.length > 0);
    if (responses) ev('response.created', { response: { id: `resp_${n}`, status: 'in_progress', model } });
    else {
      ev('message_start', { message: { id: `msg_${n}`, type: 'message', role: 'assistant', model, content: [], usage: { input_tokens: inputTokens, output_tokens: 1 } } });
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    }
    const delta = (w: string, cb?: () => void) =>
      responses ? ev('response.output_text.delta', { delta: w }, cb) : ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: w } }, cb);
    const end = () => {
      if (responses) ev('response.completed', { response: { id: `resp_${n}`, status: 'completed', model, usage: { input_tokens: inputTokens, output_tokens: outputTokens } } });
      else {
        ev('content_block_stop', { index: 0 });
        ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: outputTokens } });
        ev('message_stop', {});
      }
      rec.state = 'done';
      res.end();
      notify();
    };
    let i = 0;
    const next = () => {
      if (rec.state === 'closed') return;
      if (i < words.length) {
        if (i === 0 && prompt.startsWith('CUT:')) {
          // Cut once the first word is on the wire (a destroy drops what is still buffered).
          delta(words[i++] as string, () => {
            rec.state = 'cut';
            res.socket?.destroy();
            notify();
          });
          return;
        }
        delta(words[i++] as string);
        if (i === 1 && prompt.startsWith('HOLD:')) {
          rec.state = 'held';
          notify();
          void gate.promise.then(() => {
            if (rec.state !== 'held') return;
            rec.state = 'streaming';
            next();
          });
          return;
        }
        setImmediate(next);
        return;
      }
      end();
    };
    next();
  }

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        const v: unknown = JSON.parse(raw);
        if (v && typeof v === 'object') body = v as Record<string, unknown>;
      } catch {
        // Not JSON: answered as an empty request (the reply is then "ECHO: ").
        body = {};
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      const rec: FakeUpstreamRequest = { path, headers: req.headers, body, prompt: lastUserText(body), state: 'streaming' };
      if (req.method !== 'POST' || !(path === '/v1/messages' || path.endsWith('/responses'))) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `fake: no route ${req.method ?? ''} ${path}` } }));
        return;
      }
      requests.push(rec);
      answer(rec, raw, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    untilHeld: (count = 1) => until(`${count} HOLD stream(s) of the fake Anthropic`, () => requests.filter((r) => r.state === 'held').length >= count),
    untilState: (index, state) => until(`fake Anthropic request ${index} to be ${state}`, () => requests[index]?.state === state),
    release() {
      const opened = gate;
      gate = newGate();
      opened.open();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function newGate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
