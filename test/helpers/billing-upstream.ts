// A fake OpenAI chat-completions provider that bills the way real ones do:
// every answer it starts, it generates and bills to the end, whether or not
// anyone is still reading. Each request waits at a gate the test opens, so
// a test can hang up its client while the provider still works; `billed`
// lists what each finished answer charged (its usage), in order.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait.ts';

export const BILLED_PROMPT_TOKENS = 1_200;
export const BILLED_COMPLETION_TOKENS = 3_000;
export interface BillingOptions {
  /** Streamed answers arrive in this many chunks (default 30). */
  chunks?: number;
  /** Characters of text per chunk (default a short word). */
  chunkChars?: number;
  /** Whether requests wait at the gate for release() (default true). */
  gated?: boolean;
}

export interface Billed {
  stream: boolean;
  promptTokens: number;
  completionTokens: number;
  /** Whether the client was still connected when the answer ended (a client that leaves ends a stream early). */
  clientConnected: boolean;
}

export interface BillingUpstream {
  /** Base URL for a provider entry (`http://127.0.0.1:<port>/v1`). */
  url: string;
  /** Requests received so far. */
  received(): number;
  billed: Billed[];
  /** Resolves once `n` requests wait at the gate. */
  untilWaiting(n: number): Promise<void>;
  /** Lets every waiting request answer. */
  release(): void;
  close(): Promise<void>;
}

export async function startBillingUpstream(opts: BillingOptions = {}): Promise<BillingUpstream> {
  const chunks = opts.chunks ?? 30;
  const text = (i: number) => (opts.chunkChars === undefined ? `word${i} ` : 'x'.repeat(opts.chunkChars));
  const billed: Billed[] = [];
  let received = 0;
  let waiting: Array<() => void> = [];

  const answer = (stream: boolean, model: string, res: ServerResponse) => {
    // A client that left while the request waited at the gate is gone already.
    let connected = !res.destroyed && res.socket !== null && !res.socket.destroyed;
    res.on('close', () => {
      if (!res.writableFinished) connected = false;
    });
    const usage = { prompt_tokens: BILLED_PROMPT_TOKENS, completion_tokens: BILLED_COMPLETION_TOKENS, total_tokens: BILLED_PROMPT_TOKENS + BILLED_COMPLETION_TOKENS };
    const done = () => billed.push({ stream, promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, clientConnected: connected });
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'chatcmpl-billing', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(400) }, finish_reason: 'stop' }], usage }));
      done();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
    const chunk = (delta: unknown, finish: string | null = null) => send({ id: 'chatcmpl-billing', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] });
    chunk({ role: 'assistant', content: '' });
    let i = 0;
    const next = () => {
      if (res.destroyed) {
        done();
        return;
      }
      if (i < chunks) {
        chunk({ content: text(i) });
        i += 1;
        setImmediate(next);
        return;
      }
      chunk({}, 'stop');
      send({ id: 'chatcmpl-billing', object: 'chat.completion.chunk', created: 0, model, choices: [], usage });
      res.end('data: [DONE]\n\n');
      done();
    };
    next();
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      received += 1;
      const body = JSON.parse(raw || '{}') as { stream?: boolean; model?: string };
      const go = () => answer(body.stream === true, body.model ?? 'unknown', res);
      if (opts.gated === false) go();
      else waiting.push(go);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received: () => received,
    billed,
    untilWaiting: (n) => waitFor(() => waiting.length >= n, { what: `${n} requests at the billing upstream` }).then(() => undefined),
    release() {
      const go = waiting;
      waiting = [];
      for (const g of go) g();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
