// forward() and a provider that drops a kept-alive connection just as svc
// reuses it (the bench's intermittent 502, issue 31): nothing was answered
// on that socket, so the call goes once more on a new one. A provider that
// drops a fresh connection is still "unreachable", and nothing is sent twice
// after the caller has left. Real sockets on loopback: the provider is a raw
// TCP server, so the test decides exactly when a connection is dropped.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import { forward, type ForwardResult } from '../../shared/model-proxy/forward.ts';

const ANSWER = JSON.stringify({ id: 'x', object: 'chat.completion', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
const RESPONSE = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(ANSWER)}\r\nconnection: keep-alive\r\n\r\n${ANSWER}`;

/**
 * A provider that answers requests in arrival order by `plan`: 'answer', or
 * 'drop' (the connection is destroyed, unanswered). Counts requests per connection.
 */
async function provider(t: TestContext, plan: Array<'answer' | 'drop'>): Promise<{ url: string; requests: () => number; connections: () => number }> {
  let requests = 0;
  let connections = 0;
  const open = new Set<Socket>();
  const server = createTcpServer((socket: Socket) => {
    connections += 1;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    let buf = '';
    socket.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      // One request per body: this client always sends a content-length body.
      for (;;) {
        const head = buf.indexOf('\r\n\r\n');
        if (head === -1) return;
        const len = Number(/content-length: (\d+)/i.exec(buf.slice(0, head))?.[1] ?? 0);
        if (buf.length < head + 4 + len) return;
        buf = buf.slice(head + 4 + len);
        const step = plan[requests] ?? 'answer';
        requests += 1;
        if (step === 'drop') {
          socket.destroy();
          return;
        }
        socket.write(RESPONSE);
      }
    });
    socket.on('error', () => {
      // A client that left: nothing to answer.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // svc's pool keeps its connection alive: closed here, or the server would wait for it.
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`, requests: () => requests, connections: () => connections };
}

/** svc's side: an HTTP server whose one route forwards to `url`, handing back each ForwardResult. */
async function proxy(t: TestContext, url: string, stream = false): Promise<{ call: () => Promise<{ status: number; result: ForwardResult }> }> {
  const results: ForwardResult[] = [];
  const server: Server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = Buffer.from('{"model":"m"}');
      void forward({ url: new URL(url), headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body, api: 'openai-completions', res, startedAt: performance.now(), headersTimeoutMs: 30_000, stream }).then((r) => {
        results.push(r);
        // Unreachable: the handler answers 502 (call.ts); here the bare status.
        if (!res.headersSent) res.writeHead(502).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    call: () =>
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: false }, (res) => {
          res.resume();
          res.on('end', () => setImmediate(() => resolve({ status: res.statusCode ?? 0, result: results.at(-1) as ForwardResult })));
        });
        req.on('error', reject);
        req.end('{}');
      }),
  };
}

void test('Limits (issue 31): a kept-alive provider connection dropped as svc reuses it is retried once on a new connection', async (t) => {
  // 1st request answered (its socket goes back to the pool), 2nd dropped on that reused socket, 3rd answered on a new one.
  const p = await provider(t, ['answer', 'drop', 'answer']);
  const svc = await proxy(t, p.url);
  assert.equal((await svc.call()).status, 200);
  const second = await svc.call();
  assert.equal(second.status, 200, 'the caller never saw the dropped connection');
  assert.equal(second.result.outcome, 'ok');
  assert.deepEqual(second.result.usage, { inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 });
  assert.deepEqual([p.requests(), p.connections()], [3, 2], 'sent once more, on a second connection');
});

void test('Limits (issue 31): a fresh provider connection that drops is unreachable, never retried', async (t) => {
  const p = await provider(t, ['drop', 'answer']);
  const svc = await proxy(t, p.url);
  const dropped = await svc.call();
  assert.equal(dropped.status, 502);
  assert.equal(dropped.result.outcome, 'unreachable');
  assert.equal(p.requests(), 1, 'not sent again');
});
