// Issue 30 #5: Setup for a person who already runs a gateway. The detection
// (GET /api/system/existing-gateway) and the connect (POST
// /api/system/connect-existing-gateway) over a temporary gateway state dir
// whose openclaw.json and .env the test writes, with a stand-in gateway on a
// loopback port where a test needs one answering: it challenges, then
// accepts a connect carrying its token, refuses another, or says it is still
// starting. No answer and no log line may hold the token. The journey with a
// real gateway is test/gateway/existing-gateway.test.ts.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { buildTestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

type Mode = 'check-token' | 'starting';

/** A stand-in gateway on 127.0.0.1: challenges; `check-token` accepts its token and refuses any other, `starting` answers UNAVAILABLE. */
async function standInGateway(t: TestContext, token: string, mode: Mode = 'check-token') {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const seen: unknown[] = [];
  server.on('connection', (ws) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type?: string; id?: string; method?: string; params?: { auth?: { token?: unknown } } };
      if (frame.type !== 'req') return;
      if (frame.method !== 'connect') return void ws.send(JSON.stringify({ type: 'res', id: frame.id, ok: true, payload: {} }));
      const got = frame.params?.auth?.token ?? '';
      seen.push(got);
      const error =
        mode === 'starting'
          ? { code: 'UNAVAILABLE', message: 'gateway starting; retry shortly', retryable: false }
          : got === token
            ? null
            : { code: 'AUTH_TOKEN_MISMATCH', message: 'unauthorized: gateway token mismatch' };
      ws.send(JSON.stringify(error ? { type: 'res', id: frame.id, ok: false, error } : { type: 'res', id: frame.id, ok: true, payload: { server: { version: 'stand-in' } } }));
    });
    ws.send(JSON.stringify({ type: 'event', event: 'connect.challenge', payload: { nonce: randomBytes(16).toString('hex'), ts: Date.now() } }));
  });
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const c of server.clients) c.terminate();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as { port: number }).port, seen };
}

/** A gateway state dir with a loopback config on `port` and, unless `envToken` is null, a .env holding the token. */
function writeGatewayState(dir: string, opts: { port: number; envToken: string | null; configToken?: string }): void {
  mkdirSync(dir, { recursive: true });
  const auth = { mode: 'token', token: opts.configToken ?? '${OPENCLAW_GATEWAY_TOKEN}' };
  writeFileSync(join(dir, 'openclaw.json'), JSON.stringify({ gateway: { mode: 'local', port: opts.port, bind: 'loopback', auth } }));
  if (opts.envToken !== null) writeFileSync(join(dir, '.env'), `OPENCLAW_GATEWAY_TOKEN=${opts.envToken}\nOPENAI_API_KEY=sk-not-a-real-key-123456\n`);
}

const newToken = () => `tok-${randomBytes(12).toString('hex')}`;

async function appWithState(t: TestContext, write: (dir: string) => void) {
  const built = await buildTestApp(t, {});
  // testEnv put the gateway state dir under the temporary home: the test fills it.
  write(built.config.gatewayStateDir);
  return built;
}

void test('Issue 30 #5: nothing set up and nothing on the port: found false, and connect is a 404 that says what was looked at', async (t) => {
  const { app, config } = await buildTestApp(t);
  const port = await freePort();
  const res = await app.inject(`/api/system/existing-gateway?port=${port}`);
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.found, false);
  assert.equal(body.configExists, false);
  assert.equal(body.envExists, false);
  assert.deepEqual([body.tokenPresent, body.tokenSource, body.tokenVariable], [false, null, null]);
  assert.equal(body.port, port);
  assert.equal(body.portSource, 'request');
  assert.equal(body.probe, 'not-running');
  assert.equal(body.running, false);
  assert.equal(body.cli, null, 'no gateway-host worker in this test: the CLI is unknown, not "not installed"');
  assert.deepEqual(body.svc, { pointsHere: false, connected: false });

  const connect = await app.inject({ method: 'POST', url: '/api/system/connect-existing-gateway', payload: { port } });
  assert.equal(connect.statusCode, 404);
  assert.deepEqual(connect.json(), {
    error: `No gateway found: ${config.gatewayStateDir} has no openclaw.json and no gateway token, and nothing answers a gateway connect on port ${port}`,
  });
});

void test('Issue 30 #5: a config and a .env token, not running: found, its port from gateway.port, the token by presence only; svc already resolves it', async (t) => {
  const token = newToken();
  const port = await freePort();
  const { app, config, logs } = await appWithState(t, (dir) => writeGatewayState(dir, { port, envToken: token }));
  const res = await app.inject('/api/system/existing-gateway');
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), {
    found: true,
    stateDir: config.gatewayStateDir,
    configExists: true,
    envExists: true,
    tokenPresent: true,
    tokenSource: 'env-file',
    tokenVariable: 'OPENCLAW_GATEWAY_TOKEN',
    port,
    portSource: 'config',
    url: `ws://localhost:${port}`,
    running: false,
    probe: 'not-running',
    probeCode: null,
    cli: null,
    // svc with no settings of its own already resolves this gateway's config (its port, its token reference).
    svc: { pointsHere: true, connected: false },
  });
  assert.ok(!res.body.includes(token) && !res.body.includes('sk-not-a-real-key'));
  assert.ok(!logs.join('').includes(token));
});

void test('Issue 30 #5: a gateway answering on its port: detected with the .env token; connect saves ws://localhost:<port> and ${OPENCLAW_GATEWAY_TOKEN}, the link connects; no token in any answer or log line', async (t) => {
  const token = newToken();
  const gw = await standInGateway(t, token);
  const { app, home, logs } = await appWithState(t, (dir) => writeGatewayState(dir, { port: gw.port, envToken: token }));
  // svc's settings name another gateway: Setup must offer to connect.
  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: 'ws://localhost:1', gatewayToken: 'stale-token' } });

  const before = await app.inject('/api/system/existing-gateway');
  const found = before.json();
  assert.equal(found.running, true);
  assert.equal(found.probe, 'accepted');
  assert.deepEqual(found.svc, { pointsHere: false, connected: false });
  assert.equal(gw.seen.at(-1), token, 'the probe connects with the token from .env');

  const res = await app.inject({ method: 'POST', url: '/api/system/connect-existing-gateway' });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), {
    ok: true,
    gatewayUrl: `ws://localhost:${gw.port}`,
    port: gw.port,
    tokenFrom: 'reference',
    tokenVariable: 'OPENCLAW_GATEWAY_TOKEN',
    connected: true,
    link: { state: 'connected', error: null },
  });
  const stored = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as { gateway: { url: string; token: string } };
  assert.deepEqual(stored.gateway, { url: `ws://localhost:${gw.port}`, token: '${OPENCLAW_GATEWAY_TOKEN}' });
  assert.deepEqual((await app.inject('/api/settings')).json(), { gatewayUrl: `ws://localhost:${gw.port}`, hasToken: true, firstRunDismissedAt: null });

  const after = (await app.inject('/api/system/existing-gateway')).json();
  assert.deepEqual(after.svc, { pointsHere: true, connected: true });
  for (const body of [before.body, res.body, JSON.stringify(after)]) assert.ok(!body.includes(token), body);
  assert.ok(!logs.join('').includes(token), 'no log line holds the token');
});

void test('Issue 30 #5: a refusal (token mismatch) and UNAVAILABLE (starting) count as running; something else on the port is not a gateway', async (t) => {
  const token = newToken();
  const refusing = await standInGateway(t, 'another-token');
  const starting = await standInGateway(t, token, 'starting');
  const http = createServer((_req, res) => res.end('not a gateway'));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  t.after(() => new Promise<void>((r) => http.close(() => r())));
  const httpPort = (http.address() as { port: number }).port;
  const { app } = await appWithState(t, (dir) => writeGatewayState(dir, { port: refusing.port, envToken: token }));

  const refused = (await app.inject('/api/system/existing-gateway')).json();
  assert.deepEqual([refused.running, refused.probe, refused.probeCode], [true, 'refused', 'AUTH_TOKEN_MISMATCH']);
  const warming = (await app.inject(`/api/system/existing-gateway?port=${starting.port}`)).json();
  assert.deepEqual([warming.running, warming.probe, warming.probeCode], [true, 'starting', null]);
  const other = (await app.inject(`/api/system/existing-gateway?port=${httpPort}`)).json();
  assert.deepEqual([other.running, other.probe, other.found], [false, 'not-a-gateway', true]);

  // Connecting to the refusing one saves the settings and says how the link's connect went.
  const res = await app.inject({ method: 'POST', url: '/api/system/connect-existing-gateway' });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.connected, false);
  assert.equal(body.link.state, 'backoff');
  assert.equal(body.link.error.code, 'AUTH_TOKEN_MISMATCH');
  assert.ok(!res.body.includes(token));
});

void test('Issue 30 #5: a literal token in openclaw.json: connect saves an empty token, svc reads the token from the gateway config and connects', async (t) => {
  const token = newToken();
  const gw = await standInGateway(t, token);
  const { app, home } = await appWithState(t, (dir) => writeGatewayState(dir, { port: gw.port, envToken: null, configToken: token }));
  const found = (await app.inject('/api/system/existing-gateway')).json();
  assert.deepEqual([found.tokenPresent, found.tokenSource, found.tokenVariable], [true, 'config', null]);
  assert.equal(found.envExists, false);
  const res = await app.inject({ method: 'POST', url: '/api/system/connect-existing-gateway', payload: {} });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().tokenFrom, 'gateway-config');
  assert.equal(res.json().connected, true);
  const stored = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as { gateway: { token: string } };
  assert.equal(stored.gateway.token, '', 'settings.json holds no copy of the secret');
  await waitFor(async () => (await app.inject('/api/system/existing-gateway')).json().svc.connected === true, { what: 'the detection to see the link connected' });
});

void test('Issue 30 #5: bad input is a 400 with a message; nothing is saved', async (t) => {
  const { app, home } = await buildTestApp(t);
  for (const q of ['0', '70000', 'abc', '1.5', '']) {
    const res = await app.inject(`/api/system/existing-gateway?port=${q}`);
    assert.equal(res.statusCode, 400, q);
    assert.deepEqual(res.json(), { error: 'port must be an integer from 1 to 65535' }, q);
  }
  const cases: Array<[string, string]> = [
    ['[1,2]', 'body must be a JSON object (or empty)'],
    ['"start"', 'body must be a JSON object (or empty)'],
    ['{bad json', 'body must be a JSON object (or empty)'],
    ['{"port":"18789"}', 'port must be an integer from 1 to 65535'],
    ['{"port":0}', 'port must be an integer from 1 to 65535'],
  ];
  for (const [payload, error] of cases) {
    const res = await app.inject({ method: 'POST', url: '/api/system/connect-existing-gateway', headers: { 'content-type': 'application/json' }, payload });
    assert.equal(res.statusCode, 400, payload);
    assert.deepEqual(res.json(), { error }, payload);
  }
  assert.throws(() => readFileSync(join(home, 'settings.json')), /ENOENT/, 'nothing was saved');
});
