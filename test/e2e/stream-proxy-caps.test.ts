// Caps on long-lived connections, on real sockets (issue 15 #15): at most
// SVC_MAX_STREAMS service-shaped SSE streams and SVC_MAX_PROXY_CONNECTIONS
// proxied gateway WebSockets are open at once; one more is refused with 503
// and a JSON `{ error }`, and a slot freed by a closed connection is reused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { startServer, stopAfter } from '../helpers/server.ts';
import { openSse, tryUpgrade } from '../helpers/http.ts';
import { waitFor } from '../helpers/wait.ts';

/** The whole answer to an upgrade request, read until the server closes the socket (or 5 s of silence). */
function upgradeAnswer(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: '127.0.0.1', port });
    let data = '';
    sock.on('connect', () =>
      sock.write(
        [`GET /api/gateway/ws HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: Upgrade', 'Upgrade: websocket',
          'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', '', ''].join('\r\n'),
      ),
    );
    sock.on('data', (d) => (data += d.toString()));
    // A bound for a socket that stays open (an accepted upgrade): the answer so far is the result.
    sock.setTimeout(5000, () => sock.destroy());
    sock.on('error', reject);
    sock.on('close', () => resolve(data));
  });
}

void test('Limits (issue 15 #15): SSE streams past SVC_MAX_STREAMS get 503 with a JSON error before any stream opens; a closed stream frees its slot', async (t) => {
  const s = stopAfter(t, await startServer({ env: { SVC_MAX_STREAMS: '2' } }));
  const a = await openSse(`${s.base}/api/obs/stream`);
  const b = await openSse(`${s.base}/api/obs/stream`);
  t.after(() => Promise.all([a.close(), b.close()]));
  await a.until((f) => f[0]?.comment === 'connected');
  await b.until((f) => f[0]?.comment === 'connected');

  const third = await fetch(`${s.base}/api/obs/stream`);
  assert.equal(third.status, 503);
  assert.match(third.headers.get('content-type') ?? '', /application\/json/);
  assert.deepEqual(await third.json(), { error: 'too many open streams (limit 2)' });
  // The gateway operation streams share the cap: refused the same way, before any operation runs.
  const install = await fetch(`${s.base}/api/system/install-gateway`, { method: 'POST' });
  assert.equal(install.status, 503);
  assert.deepEqual(await install.json(), { error: 'too many open streams (limit 2)' });
  // Other routes still answer.
  assert.equal((await fetch(`${s.base}/api/settings`)).status, 200);

  await a.close();
  // The server noticing a closed socket has no event a client can see: ask until the slot is free.
  const next = await waitFor(async () => {
    const res = await fetch(`${s.base}/api/obs/stream`);
    if (res.status === 200) return res;
    await res.body?.cancel();
    return undefined;
  }, { what: 'the closed stream\'s slot' });
  assert.equal(next.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  await next.body?.cancel();
});

void test('Limits (issue 15 #15): proxied gateway connections past SVC_MAX_PROXY_CONNECTIONS are answered HTTP 503 and closed; a closed one frees its slot', async (t) => {
  // A loopback WebSocket server stands in for the gateway: it accepts and holds connections.
  const gateway = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(gateway, 'listening');
  t.after(() => {
    // close() waits for open connections: end them first.
    for (const c of gateway.clients) c.terminate();
    return new Promise<void>((r) => gateway.close(() => r()));
  });
  let upstreamOpen = 0;
  const upstreamChanged: Array<() => void> = [];
  // Only proxied connections carry the browser's Origin (svc's own gateway client sends none).
  gateway.on('connection', (ws, req) => {
    if (req.headers.origin === undefined) return;
    upstreamOpen++;
    for (const f of upstreamChanged.splice(0)) f();
    ws.on('close', () => {
      upstreamOpen--;
      for (const f of upstreamChanged.splice(0)) f();
    });
  });
  const upstreamCount = async (n: number) => {
    while (upstreamOpen !== n) await new Promise<void>((r) => upstreamChanged.push(r));
  };
  const gatewayPort = (gateway.address() as { port: number }).port;

  const s = stopAfter(t, await startServer({ env: { SVC_MAX_PROXY_CONNECTIONS: '2' } }));
  const saved = await fetch(`${s.base}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ gatewayUrl: `ws://127.0.0.1:${gatewayPort}` }),
  });
  assert.equal(saved.status, 200);

  const browser = () => new WebSocket(`ws://127.0.0.1:${s.port}/api/gateway/ws`, { origin: s.base });
  const browsers = [browser(), browser()];
  t.after(() => browsers.forEach((b) => b.terminate()));
  await Promise.all(browsers.map((b) => once(b, 'open')));
  await upstreamCount(2);

  const refused = await upgradeAnswer(s.port);
  assert.match(refused, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
  assert.deepEqual(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4)), { error: 'too many gateway connections (limit 2)' });
  assert.equal(upstreamOpen, 2, 'the refused one never reached the gateway');

  // The proxy forgets a connection before it closes the upstream leg: once the gateway sees it go, its slot is free.
  browsers[0]?.close();
  await upstreamCount(1);
  assert.equal(await tryUpgrade(s.port, '/api/gateway/ws'), 'HTTP/1.1 101 Switching Protocols');
});
