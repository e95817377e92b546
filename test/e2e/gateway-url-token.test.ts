// Issue 31, item 6 (the gateway URL half), end to end: svc runs as a child
// process; two loopback WebSocket servers stand in for the gateway it was
// given a token for and for "the other host". Changing only the gateway URL
// (POST /api/settings) sends the other host neither the stored token nor a
// device proof: svc does not contact it at all, and its health says
// `gateway token needed for <origin>` without any secret. Going back to the
// old URL uses the old token again; a token given for the new URL is used
// there (docs/gateway.md "A token belongs to its gateway").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { startServer, stopAfter } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

interface SeenConnect {
  token: unknown;
  device: unknown;
}

/** A stand-in gateway: challenges every socket, accepts any connect, and records sockets, frames and connects. */
async function startRecorder() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const frames: string[] = [];
  const connects: SeenConnect[] = [];
  const seen = new EventEmitter();
  let sockets = 0;
  server.on('connection', (ws) => {
    sockets++;
    ws.on('message', (data) => {
      const text = data.toString();
      frames.push(text);
      const frame = JSON.parse(text) as { type?: string; id?: string; method?: string; params?: { auth?: { token?: unknown }; device?: unknown } };
      if (frame.type !== 'req' || frame.method !== 'connect') return;
      connects.push({ token: frame.params?.auth?.token, device: frame.params?.device });
      ws.send(JSON.stringify({ type: 'res', id: frame.id, ok: true, payload: { type: 'hello-ok', server: { version: 'recorder' }, policy: { tickIntervalMs: 30_000 } } }));
      seen.emit('connect', frame.params?.auth?.token);
    });
    ws.send(JSON.stringify({ type: 'event', event: 'connect.challenge', payload: { nonce: randomBytes(16).toString('hex'), ts: Date.now() } }));
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    origin: `ws://127.0.0.1:${port}`,
    frames,
    connects,
    sockets: () => sockets,
    /** Resolves at the first connect from now on that carries `token`. */
    nextConnectWith: (token: string) =>
      new Promise<void>((resolve) => {
        const on = (t: unknown) => {
          if (t !== token) return;
          seen.off('connect', on);
          resolve();
        };
        seen.on('connect', on);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of server.clients) c.terminate();
        server.close(() => resolve());
      }),
  };
}

type Check = { id: string; ok: boolean; message: string; detail?: { lastError?: { code: string; message: string } | null } };

void test('Settings and health (issue 31, item 6): a changed gateway URL gets no stored token and no device proof until a token is given for it', { timeout: 120_000 }, async (t) => {
  const given = await startRecorder();
  const other = await startRecorder();
  t.after(() => given.close());
  t.after(() => other.close());
  const svc = stopAfter(t, await startServer());
  const TOKEN = `gw-${randomBytes(16).toString('hex')}`;
  const NEW_TOKEN = `gw-new-${randomBytes(16).toString('hex')}`;
  const save = async (body: Record<string, unknown>) => {
    const res = await fetch(`${svc.base}/api/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const settingsView = async () => (await (await fetch(`${svc.base}/api/settings`)).json()) as Record<string, unknown>;
  const gatewayCheck = async () => {
    // A recheck: GET /api/health keeps the boot probe's checks.
    const health = (await (await fetch(`${svc.base}/api/health/recheck`, { method: 'POST' })).json()) as { checks: Check[] };
    return health.checks.find((c) => c.id === 'gatewayReachable');
  };

  // The token is given with the first URL: that gateway gets it, with svc's device proof.
  const first = given.nextConnectWith(TOKEN);
  assert.deepEqual(await save({ gatewayUrl: given.url, gatewayToken: TOKEN }), { status: 200, body: { ok: true } });
  await first;
  assert.ok(given.connects.some((c) => c.token === TOKEN && typeof c.device === 'object' && c.device !== null), 'the given gateway sees the token and a device proof');

  // Only the URL changes: the route answers as always, the token stays stored, the other host is never contacted.
  assert.deepEqual(await save({ gatewayUrl: other.url }), { status: 200, body: { ok: true } });
  const onDisk = JSON.parse(readFileSync(join(svc.home, 'settings.json'), 'utf8')) as { gateway: Record<string, unknown> };
  assert.deepEqual(onDisk.gateway, { url: other.url, token: TOKEN, tokenFor: given.origin }, 'the token is kept, bound to the origin it was given for');
  const needed = `gateway token needed for ${other.origin}`;
  const check = await waitFor(async () => {
    const c = await gatewayCheck();
    return c?.detail?.lastError?.code === 'TOKEN_NEEDED' ? c : undefined;
  }, { what: 'the health report to say a token is needed for the new URL' });
  assert.equal(check.ok, false);
  assert.equal(check.detail?.lastError?.message, needed);
  assert.ok(check.message.includes(needed), check.message);
  const view = await settingsView();
  assert.equal(view.gatewayUrl, other.url);
  assert.equal(view.hasToken, false, 'no token is in play for the new URL');
  assert.ok(!JSON.stringify(view).includes(TOKEN) && !JSON.stringify(check).includes(TOKEN), 'no secret in the views');

  // Back to the first URL: its token is used again. Every connection svc made after the move is there now.
  const back = given.nextConnectWith(TOKEN);
  assert.deepEqual(await save({ gatewayUrl: `${given.url}/` }), { status: 200, body: { ok: true } });
  await back;
  assert.equal(other.sockets(), 0, 'svc opened no socket to the other host');
  assert.deepEqual(other.frames, [], 'the other host received nothing: no token, no device proof');
  await waitFor(async () => (await gatewayCheck())?.ok, { what: 'the link to be connected again with the old token' });

  // A token given for the new URL is used there, with the device proof.
  const fresh = other.nextConnectWith(NEW_TOKEN);
  assert.deepEqual(await save({ gatewayUrl: other.url, gatewayToken: NEW_TOKEN }), { status: 200, body: { ok: true } });
  await fresh;
  assert.ok(other.connects.every((c) => c.token === NEW_TOKEN), 'the old token never reached the other host');
  assert.ok(other.connects.some((c) => typeof c.device === 'object' && c.device !== null));
  assert.ok(!svc.output().includes(TOKEN) && !svc.output().includes(NEW_TOKEN), 'no token in svc\'s log');
});
