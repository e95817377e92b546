// forward() and a caller that hangs up on a stream (issue 31). A client
// library may close its connection as soon as it has read the stream's last
// event ([DONE], message_stop), before the provider's own connection ends:
// that answer was whole and is recorded `ok` with its usage. A caller that
// leaves before the last event is `aborted`. Real sockets on loopback; the
// provider holds its connection open after its last event, so the caller's
// hang-up always comes first. The answer's model is read from the stream too.
import assert from 'node:assert/strict';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import type { RoutedApi } from '../../shared/model-routing/registry.ts';
import { forward, type ForwardResult } from '../../shared/model-proxy/forward.ts';

const sse = (data: unknown): string => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const OPENAI_EVENTS = [
  sse({ model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, delta: { content: 'hello' } }] }),
  sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } }),
  sse('[DONE]'),
];
const ANTHROPIC_EVENTS = [
  sse({ type: 'message_start', message: { model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 11, output_tokens: 1 } } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } }),
  sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } }),
  sse({ type: 'message_stop' }),
];

/** A provider that writes `events` and then keeps the stream open until the test ends. */
async function provider(t: TestContext, events: string[]): Promise<string> {
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.resume();
    held.add(res);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const e of events) res.write(e);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/stream`;
}

/** svc's side forwards one streamed call; the caller reads until `hangUpAfter` is in what it got, then destroys its socket. */
async function hangUpAfter(t: TestContext, url: string, api: RoutedApi, marker: string): Promise<ForwardResult> {
  let result!: Promise<ForwardResult>;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = Buffer.from('{"model":"m","stream":true}');
      result = forward({ url: new URL(url), headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body, api, res, startedAt: performance.now(), headersTimeoutMs: 30_000, stream: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: false }, (res) => {
      let seen = '';
      res.on('data', (d: Buffer) => {
        seen += d.toString('utf8');
        if (seen.includes(marker)) {
          res.destroy();
          resolve();
        }
      });
    });
    req.on('error', reject);
    req.end('{}');
  });
  return result;
}

void test('Limits (issue 31): a caller that hangs up right after [DONE] got the whole answer: ok, with its usage', async (t) => {
  const r = await hangUpAfter(t, await provider(t, OPENAI_EVENTS), 'openai-completions', '[DONE]');
  assert.equal(r.outcome, 'ok');
  assert.equal(r.whole, true);
  assert.deepEqual(r.usage, { inputTokens: 7, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 });
  assert.equal(r.responseModel, 'gpt-4o-mini-2024-07-18', 'the model the provider says answered, from its chunks');
});

void test('Limits (issue 31): a caller that hangs up right after message_stop got the whole answer: ok, with its usage', async (t) => {
  const r = await hangUpAfter(t, await provider(t, ANTHROPIC_EVENTS), 'anthropic-messages', 'message_stop');
  assert.equal(r.outcome, 'ok');
  assert.deepEqual([r.usage?.inputTokens, r.usage?.outputTokens], [11, 4]);
  assert.equal(r.responseModel, 'claude-sonnet-4-5-20250929', "from message_start's message");
});

void test('Limits (issue 31): a caller that hangs up before the last event is aborted, not whole', async (t) => {
  const r = await hangUpAfter(t, await provider(t, OPENAI_EVENTS.slice(0, 1)), 'openai-completions', 'hello');
  assert.equal(r.outcome, 'aborted');
  assert.equal(r.whole, false);
});
