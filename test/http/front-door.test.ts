// The front door through inject(): body limit, malformed JSON, prototype
// poisoning, the error envelope and redaction, the UI catch-all, DNS rebinding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildTestApp } from '../helpers/app.ts';
import { rawRequest } from '../helpers/http.ts';

const count = (db: { prepare(sql: string): { pluck(): { get(): unknown } } }) =>
  db.prepare('SELECT COUNT(*) FROM events').pluck().get() as number;

void test('Common conventions: a JSON body over 2 MB is refused with 413 before any handler runs, nothing written', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const big = JSON.stringify({ events: [{ kind: 'tool_call', data: { blob: 'x'.repeat(3 * 1024 * 1024) } }] });
  const res = await app.inject({ method: 'POST', url: '/api/obs/ingest', headers: { 'content-type': 'application/json' }, payload: big });
  assert.equal(res.statusCode, 413);
  assert.match(res.json().error, /too large/);
  assert.equal(count(runtime.deps.db), 0);
});

void test('Errors: malformed JSON is a 400 with the route\'s message; nothing is written', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const settings = await app.inject({ method: 'POST', url: '/api/settings', headers: { 'content-type': 'application/json' }, payload: '{"gatewayUrl": ' });
  assert.equal(settings.statusCode, 400);
  assert.deepEqual(settings.json(), { error: 'JSON body required' });
  const ingest = await app.inject({ method: 'POST', url: '/api/obs/ingest', headers: { 'content-type': 'application/json' }, payload: '[{' });
  assert.equal(ingest.statusCode, 400);
  assert.deepEqual(ingest.json(), { error: 'invalid JSON' });
  assert.equal(count(runtime.deps.db), 0);
});

void test('Errors: a prototype-poisoning body is refused with 400', async (t) => {
  const { app, home } = await buildTestApp(t);
  const res = await app.inject({
    method: 'POST',
    url: '/api/settings',
    headers: { 'content-type': 'application/json' },
    payload: '{"gatewayUrl":"ws://x:1","__proto__":{"polluted":true}}',
  });
  assert.equal(res.statusCode, 400);
  assert.equal(typeof res.json().error, 'string');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const { existsSync } = await import('node:fs');
  assert.equal(existsSync(`${home}/settings.json`), false, 'settings.json must not be created');
});

void test('Errors: an unexpected throw is a 500 with a redacted message and a logged stack; the app keeps answering', async (t) => {
  const token = 'gw-token-0123456789abcdef';
  const { app, logs } = await buildTestApp(t, {
    beforeReady: (a) => a.get('/api/test-throw', async () => {
      throw new Error(`upstream said no to ${token} with Bearer abcdefghijklmnop`);
    }),
  });
  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayToken: token } });
  // Let the settings cache expire so the redactor knows the new token.
  const res = await app.inject({ method: 'GET', url: '/api/test-throw' });
  assert.equal(res.statusCode, 500);
  const body = res.json() as { error: string };
  assert.ok(!body.error.includes(token), body.error);
  assert.ok(!body.error.includes('abcdefghijklmnop'), body.error);
  assert.match(body.error, /upstream said no to ••••/);
  const logged = logs.join('\n');
  assert.match(logged, /unhandled error/);
  assert.match(logged, /"stack":/);
  assert.ok(!logged.includes(token), 'token must not be logged');
  const again = await app.inject({ method: 'GET', url: '/api/settings' });
  assert.equal(again.statusCode, 200);
});

void test('Process model: unknown /api routes are a 404 envelope; other GET paths get the UI entry page', async (t) => {
  const seen: string[] = [];
  const { app, config } = await buildTestApp(t, { beforeReady: (a) => a.addHook('onRequest', async (req) => void seen.push(req.raw.url ?? '')) });
  const api = await app.inject({ method: 'GET', url: '/api/nope' });
  assert.equal(api.statusCode, 404);
  assert.deepEqual(api.json(), { error: 'not found' });
  const page = await app.inject({ method: 'GET', url: '/teams/123/chat' });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.match(page.body, /<title>svc<\/title>/);
  // The built entry script, named by its content hash: served as JavaScript and cached for good.
  const entry = /<script type="module"[^>]*src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
  assert.ok(entry, 'the entry page names its module script');
  const asset = await app.inject({ method: 'GET', url: entry });
  assert.equal(asset.statusCode, 200);
  assert.match(String(asset.headers['content-type']), /javascript/);
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  const missing = await app.inject({ method: 'GET', url: '/assets/no-such-chunk.js' });
  assert.equal(missing.statusCode, 404, 'a missing asset is not answered with the entry page');
  // Traversal out of ui/dist, over a real socket: inject() would normalise a
  // plain `/../..` away before the server saw it. Preconditions (issue 16 #5):
  // the file it aims at exists and holds the text looked for, and each
  // spelling reaches the server as sent.
  const target = join(config.packageRoot, 'ui', 'dist', '..', '..', 'package.json');
  assert.ok(readFileSync(target, 'utf8').includes('"devDependencies"'), `${target} is there to be stolen`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  for (const path of ['/..%2f..%2fpackage.json', '/../../package.json', '/%2e%2e/%2e%2e/package.json', '/assets/..%2f..%2f..%2fpackage.json']) {
    seen.length = 0;
    const traversal = await rawRequest(port, { path });
    assert.deepEqual(seen, [path], 'the request reached the server in its traversal form');
    assert.equal(traversal.status, 404, path);
    assert.deepEqual(JSON.parse(traversal.body), { error: 'not found' }, path);
    assert.ok(!traversal.body.includes('"devDependencies"'), path);
  }
  const post = await app.inject({ method: 'POST', url: '/teams' });
  assert.equal(post.statusCode, 404);
});

void test('DNS rebinding guard: a non-loopback Host or a foreign Origin gets 403 before routing', async (t) => {
  const { app } = await buildTestApp(t);
  const evilHost = await app.inject({ method: 'GET', url: '/api/settings', headers: { host: 'evil.example:18790' } });
  assert.equal(evilHost.statusCode, 403);
  const rebound = await app.inject({ method: 'GET', url: '/api/settings', headers: { host: '127.0.0.1.nip.io' } });
  assert.equal(rebound.statusCode, 403);
  const origin = await app.inject({ method: 'POST', url: '/api/settings', headers: { origin: 'http://evil.example' }, payload: { gatewayUrl: 'ws://a:1' } });
  assert.equal(origin.statusCode, 403);
  const mcp = await app.inject({ method: 'POST', url: '/api/mcp/tasks', headers: { host: 'evil.example' }, payload: {} });
  assert.equal(mcp.statusCode, 403);
  const ok = await app.inject({ method: 'GET', url: '/api/settings', headers: { host: '127.0.0.1:18790', origin: 'http://localhost:18790' } });
  assert.equal(ok.statusCode, 200);
});

void test('Security (issue 15 #10): development mode grants CORS with credentials to the dev origin only, never to any origin', async (t) => {
  // Loopback bind: the rebinding guard accepts the dev origin besides the dashboard's own and refuses the rest.
  const dev = await buildTestApp(t, { env: { NODE_ENV: 'development' } });
  dev.runtime.setBoundPort(18790); // as main.ts does once bound: the dashboard's own origin is then known
  const evil = await dev.app.inject({ method: 'GET', url: '/api/settings', headers: { origin: 'http://evil.example' } });
  assert.equal(evil.statusCode, 403);
  assert.equal(evil.headers['access-control-allow-origin'], undefined);
  const post = await dev.app.inject({ method: 'POST', url: '/api/settings', headers: { origin: 'http://localhost:5174' }, payload: { gatewayUrl: 'ws://evil:1' } });
  assert.equal(post.statusCode, 403);
  assert.equal(post.headers['access-control-allow-origin'], undefined);
  // A LAN bind (the guard is off there): another origin gets an answer, but no CORS grant, so its page cannot read it.
  const lan = await buildTestApp(t, { env: { NODE_ENV: 'development', HOST: '0.0.0.0', STUDIO_ACCESS_TOKEN: 'lan-token-1' } });
  for (const origin of ['http://evil.example', 'null', 'http://localhost:5173.evil.example']) {
    const res = await lan.app.inject({ method: 'GET', url: '/api/settings', headers: { origin, authorization: 'Bearer lan-token-1' } });
    assert.equal(res.statusCode, 200, origin);
    assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
    assert.equal(res.headers['access-control-allow-credentials'], undefined, origin);
    const preflight = await lan.app.inject({ method: 'OPTIONS', url: '/api/settings', headers: { origin, 'access-control-request-method': 'POST' } });
    assert.notEqual(preflight.statusCode, 204, origin);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined, origin);
  }
  const ok = await lan.app.inject({ method: 'OPTIONS', url: '/api/settings', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
  assert.equal(ok.statusCode, 204);
  assert.equal(ok.headers['access-control-allow-origin'], 'http://localhost:5173');
  // The setting names the one origin.
  const custom = await buildTestApp(t, { env: { NODE_ENV: 'development', SVC_DEV_ORIGIN: 'http://127.0.0.1:4000' } });
  custom.runtime.setBoundPort(18790);
  const mine = await custom.app.inject({ method: 'GET', url: '/api/settings', headers: { origin: 'http://127.0.0.1:4000' } });
  assert.equal(mine.statusCode, 200);
  assert.equal(mine.headers['access-control-allow-origin'], 'http://127.0.0.1:4000');
  assert.equal(mine.headers['access-control-allow-credentials'], 'true');
  assert.equal((await custom.app.inject({ method: 'GET', url: '/api/settings', headers: { origin: 'http://localhost:5173' } })).statusCode, 403);
});

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function assertNoFraming(res: { headers: Record<string, unknown> }, what: string): void {
  assert.equal(res.headers['x-frame-options'], 'DENY', what);
  assert.match(String(res.headers['content-security-policy']), /(^|; )frame-ancestors 'none'(;|$)/, what);
}

void test('Security (issue 15 #11): every answer carries X-Frame-Options: DENY and a CSP with frame-ancestors \'none\'', async (t) => {
  const { app } = await buildTestApp(t, {
    beforeReady: (a) => a.get('/api/test-throw', async () => {
      throw new Error('boom');
    }),
  });
  const answers = {
    'a JSON route': await app.inject('/api/settings'),
    'a 404 envelope': await app.inject('/api/nope'),
    'a 400 from the error handler': await app.inject({ method: 'POST', url: '/api/settings', headers: { 'content-type': 'application/json' }, payload: '{' }),
    'a 500': await app.inject('/api/test-throw'),
    'a 403 from the rebinding guard': await app.inject({ url: '/api/settings', headers: { host: 'evil.example' } }),
    'a hijacked JSON-parts answer': await app.inject('/api/obs/events'),
    'a hijacked MCP answer': await app.inject({ method: 'POST', url: '/api/mcp/tasks', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'ping' } }),
    'a router refusal (bad %-escape)': await app.inject('/api/%zz'),
    'an asset': await app.inject('/app.js'),
  };
  for (const [what, res] of Object.entries(answers)) {
    assertNoFraming(res, what);
    assert.equal(res.headers['content-security-policy'], API_CSP, what);
  }
  assert.deepEqual(answers['a router refusal (bad %-escape)'].json(), { error: 'invalid URL' });
  assert.equal(answers['a router refusal (bad %-escape)'].statusCode, 400);
  const page = await app.inject('/teams/1');
  assertNoFraming(page, 'the UI page');
  const csp = String(page.headers['content-security-policy']);
  // The page works under it: its script, style and API calls are same-origin files (no inline code).
  for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "object-src 'none'"]) {
    assert.ok(csp.split('; ').includes(directive), `${directive} in ${csp}`);
  }
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.doesNotMatch(page.body, /<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i, 'no inline script, style or handler in the page');
});

void test('Security (issue 15 #11): the gate\'s 401 and its redirect carry the anti-framing headers too', async (t) => {
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: 'frame-token-1' } });
  assertNoFraming(await app.inject('/api/settings'), 'the gate 401');
  assertNoFraming(await app.inject('/teams?access_token=frame-token-1'), 'the gate redirect');
});

void test('Process model: development mode allows cross-origin access with credentials; production does not', async (t) => {
  const dev = await buildTestApp(t, { env: { NODE_ENV: 'development' } });
  const res = await dev.app.inject({ method: 'GET', url: '/api/settings', headers: { origin: 'http://localhost:5173' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
  assert.equal(res.headers['access-control-allow-credentials'], 'true');
  const prod = await buildTestApp(t);
  const p = await prod.app.inject({ method: 'GET', url: '/api/settings' });
  assert.equal(p.headers['access-control-allow-origin'], undefined);
});
