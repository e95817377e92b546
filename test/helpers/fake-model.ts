// A fake OpenAI-compatible model provider on 127.0.0.1, for tests that run a
// real gateway: the model is the one external, paid part, so it is the one
// part faked. Deterministic: it answers `ECHO: <the user's text>`, streamed
// word by word when the gateway asks for a stream (it always does).
//
// The gateway wraps the user's text as "[<date>] <text>\n\nRuntime: ..." and
// appends a synthetic user message between OpenClaw's internal-context
// markers; both are stripped to find the text that was sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_MODEL_ID = 'fake-model';
const INTERNAL = /<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>[\s\S]*?<<<END_OPENCLAW_INTERNAL_CONTEXT>>>/g;

export interface FakeModel {
  /** Base URL for the provider config (`http://127.0.0.1:<port>/v1`). */
  url: string;
  /** The user prompts received, in order (after stripping the gateway's wrapping). */
  prompts: string[];
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

/** The last real user text of a chat-completions request. */
export function promptOf(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m?.role !== 'user') continue;
    const text = textOf(m.content).replace(INTERNAL, '').trim();
    if (text) return text.replace(/^\[[^\]]*\]\s*/, '').split(/\n\nRuntime: /)[0]?.trim() ?? '';
  }
  return '';
}

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

function complete(body: Record<string, unknown>, res: ServerResponse, text: string): void {
  const id = `chatcmpl-fake-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof body.model === 'string' ? body.model : FAKE_MODEL_ID;
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
  const chunk = (delta: unknown, finish: string | null = null) =>
    send({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  chunk({ role: 'assistant', content: '' });
  const words = text.split(/(\s+)/).filter((w) => w.length > 0);
  let i = 0;
  const next = () => {
    if (i < words.length) {
      chunk({ content: words[i++] });
      setTimeout(next, 10);
      return;
    }
    chunk({}, 'stop');
    send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage }); // include_usage
    res.end('data: [DONE]\n\n');
  };
  next();
}

export async function startFakeModel(): Promise<FakeModel> {
  const prompts: string[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method === 'GET' && path.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: FAKE_MODEL_ID, object: 'model', created: 0, owned_by: 'fake' }] }));
        return;
      }
      if (req.method === 'POST' && path.endsWith('/chat/completions')) {
        const prompt = promptOf(body.messages);
        prompts.push(prompt);
        complete(body, res, `ECHO: ${prompt}`);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model: no route ${req.method ?? ''} ${path}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    prompts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
