// supervisor/plugins/access-gate.ts (spec "Authentication" 1-7) and
// supervisor/plugins/host-guard.ts (the DNS-rebinding guard, beyond the spec).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../shared/log.ts';
import { createGate, gateVerdict, parseCookies } from '../../supervisor/plugins/access-gate.ts';
import { hostGuardVerdict, isLoopbackAddress, type HostGuardOptions } from '../../supervisor/plugins/host-guard.ts';

const TOKEN = 'Secret-Token_1.2~3';
const COOKIE = `svc_access=${TOKEN}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000`;

function gateFor(t: TestContext, token: string | null) {
  const lines: string[] = [];
  const consoleError = t.mock.method(console, 'error', () => undefined);
  const gate = createGate(token, createLogger({ level: 'info' }, { write: (s: string) => void lines.push(s) }));
  return { gate, lines, consoleError };
}

void test('Authentication 1: with no token (null or blank) the gate is off and every route is open', (t) => {
  for (const token of [null, '']) {
    const { gate, lines } = gateFor(t, token);
    assert.equal(gate.enabled, false);
    assert.deepEqual(gateVerdict(gate, 'POST', '/api/settings', {}), { kind: 'pass' });
    assert.equal(gate.matches(''), false);
    assert.deepEqual(lines, []);
  }
});

void test('Authentication 5: a token with a character outside [A-Za-z0-9._~-] disables the gate loudly', (t) => {
  for (const token of ['has space', 'semi;colon', 'slash/1', 'tök', 'a+b']) {
    const { gate, lines, consoleError } = gateFor(t, token);
    assert.equal(gate.enabled, false, token);
    assert.deepEqual(gateVerdict(gate, 'GET', '/api/settings', {}), { kind: 'pass' });
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0] as string) as { level: number; msg: string };
    assert.equal(line.level, 50);
    assert.match(line.msg, /DISABLED/);
    assert.ok(!line.msg.includes(token), 'the token itself is not logged');
    assert.equal(consoleError.mock.callCount(), 1);
  }
  const { gate, lines } = gateFor(t, TOKEN);
  assert.equal(gate.enabled, true);
  assert.deepEqual(lines, []);
});

void test('Authentication 3: the /api/ prefix is case-folded; other paths are not gated', (t) => {
  const { gate } = gateFor(t, TOKEN);
  for (const url of ['/api/settings', '/API/settings', '/Api/x', '/api', '/aPi/', '/API?x=1']) {
    assert.deepEqual(gateVerdict(gate, 'GET', url, {}), { kind: 'deny' }, url);
  }
  for (const url of ['/', '/apix', '/teams/1', '/assets/app.js', '/index.html?api=1']) {
    assert.deepEqual(gateVerdict(gate, 'GET', url, {}), { kind: 'pass' }, url);
  }
});

void test('Authentication 3: a percent-encoded /api/ path (which the router decodes) is gated too', (t) => {
  const { gate } = gateFor(t, TOKEN);
  // find-my-way routes /%61pi/settings to /api/settings, so it must not slip past the gate.
  for (const url of ['/%61pi/settings', '/%41PI/settings', '/ap%69/health']) {
    assert.deepEqual(gateVerdict(gate, 'GET', url, {}), { kind: 'deny' }, url);
  }
});

void test('Authentication 2: a query token on a page visit redirects without the token and sets the cookie', (t) => {
  const { gate } = gateFor(t, TOKEN);
  assert.deepEqual(gateVerdict(gate, 'GET', `/teams?access_token=${TOKEN}&tab=2`, {}), {
    kind: 'redirect', location: '/teams?tab=2', setCookie: COOKIE,
  });
  assert.deepEqual(gateVerdict(gate, 'HEAD', `/?access_token=${TOKEN}`, {}), { kind: 'redirect', location: '/', setCookie: COOKIE });
  assert.deepEqual(gateVerdict(gate, 'POST', `/page?access_token=${TOKEN}`, {}), { kind: 'pass', setCookie: COOKIE });
});

void test('Authentication 2: a query token on /api passes and sets the cookie; a wrong one falls back to the cookie', (t) => {
  const { gate } = gateFor(t, TOKEN);
  assert.deepEqual(gateVerdict(gate, 'GET', `/api/settings?access_token=${TOKEN}`, {}), { kind: 'pass', setCookie: COOKIE });
  assert.deepEqual(gateVerdict(gate, 'POST', `/API/obs/ingest?x=1&access_token=${TOKEN}`, {}), { kind: 'pass', setCookie: COOKIE });
  assert.deepEqual(gateVerdict(gate, 'GET', '/api/settings?access_token=wrong', {}), { kind: 'deny' });
  assert.deepEqual(gateVerdict(gate, 'GET', '/api/settings?access_token=wrong', { cookie: `svc_access=${TOKEN}` }), { kind: 'pass' });
  // A wrong query token on a page is not a redirect and sets nothing.
  assert.deepEqual(gateVerdict(gate, 'GET', '/teams?access_token=wrong', {}), { kind: 'pass' });
});

void test('Authentication 2: the cookie is Secure only behind X-Forwarded-Proto https', (t) => {
  const { gate } = gateFor(t, TOKEN);
  const url = `/api/x?access_token=${TOKEN}`;
  for (const proto of ['https', 'HTTPS', 'https, http']) {
    assert.deepEqual(gateVerdict(gate, 'GET', url, { 'x-forwarded-proto': proto }), { kind: 'pass', setCookie: `${COOKIE}; Secure` }, proto);
  }
  for (const proto of [undefined, 'http', 'http, https', 'wss']) {
    assert.deepEqual(gateVerdict(gate, 'GET', url, { 'x-forwarded-proto': proto }), { kind: 'pass', setCookie: COOKIE }, proto);
  }
});

void test('Authentication 2: the right cookie passes among others; a wrong or missing cookie is denied', (t) => {
  const { gate } = gateFor(t, TOKEN);
  assert.deepEqual(gateVerdict(gate, 'GET', '/api/x', { cookie: `a=1; svc_access=${TOKEN}; b=2` }), { kind: 'pass' });
  for (const cookie of [`svc_access=${TOKEN}x`, 'svc_access=', `other=${TOKEN}`, `svc_access=${TOKEN.toLowerCase()}`, '']) {
    assert.deepEqual(gateVerdict(gate, 'GET', '/api/x', { cookie }), { kind: 'deny' }, cookie);
  }
  assert.equal(gate.matches(null), false);
  assert.equal(gate.matches(TOKEN), true);
});

void test('Authentication 2: parseCookies trims, decodes, skips parts without = and keeps a bad escape raw', () => {
  const m = parseCookies(' a=1; b = x%20y ;bad; c=%E0%A4%A; d=p=q');
  assert.deepEqual([...m], [['a', '1'], ['b', 'x y'], ['c', '%E0%A4%A'], ['d', 'p=q']]);
  assert.equal(parseCookies(undefined).size, 0);
});

const guard = (over: Partial<HostGuardOptions> = {}): HostGuardOptions => ({
  enabled: true, allowAnyOrigin: false, boundPort: () => 18790, ...over,
});

void test('Host guard: loopback Host names pass; lookalikes and other names are refused', () => {
  for (const host of ['localhost:1234', '127.0.0.1', '[::1]:80', 'LOCALHOST', 'app.localhost:18790', '127.5.6.7:18790', '::1']) {
    assert.equal(hostGuardVerdict({ host }, guard()), null, host);
  }
  for (const host of ['evil.com', '127.0.0.1.nip.io', 'attacker.localhost.evil.com', 'localhost.evil.com', '0.0.0.0:18790',
    '10.0.0.1', '127.0.0.1:abc', '']) {
    assert.equal(hostGuardVerdict({ host }, guard()), 'Host header is not a loopback name', host);
  }
  assert.equal(hostGuardVerdict({}, guard()), 'Host header is not a loopback name');
});

void test('Host guard: Origin must be a loopback name on the bound port; "null" is refused', () => {
  const host = 'localhost:18790';
  for (const origin of ['http://localhost:18790', 'http://127.0.0.1:18790', 'http://[::1]:18790']) {
    assert.equal(hostGuardVerdict({ host, origin }, guard()), null, origin);
  }
  for (const origin of ['http://localhost:3000', 'http://evil.com:18790', 'null', 'http://localhost', 'garbage',
    'http://127.0.0.1.nip.io:18790']) {
    assert.equal(hostGuardVerdict({ host, origin }, guard()), 'Origin is not this dashboard', origin);
  }
  // Unknown bound port: any loopback origin port.
  assert.equal(hostGuardVerdict({ host, origin: 'http://localhost:3000' }, guard({ boundPort: () => null })), null);
});

void test('Host guard: allowAnyOrigin skips only the Origin check; a disabled guard passes everything', () => {
  assert.equal(hostGuardVerdict({ host: 'localhost', origin: 'http://evil.com' }, guard({ allowAnyOrigin: true })), null);
  assert.equal(hostGuardVerdict({ host: 'localhost', origin: 'null' }, guard({ allowAnyOrigin: true })), null);
  assert.equal(hostGuardVerdict({ host: 'evil.com' }, guard({ allowAnyOrigin: true })), 'Host header is not a loopback name');
  assert.equal(hostGuardVerdict({ host: 'evil.com', origin: 'null' }, guard({ enabled: false })), null);
  assert.equal(hostGuardVerdict({}, guard({ enabled: false })), null);
});

void test('Authentication 7: isLoopbackAddress knows the loopback bind addresses', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', ' LOCALHOST ', '::1', '[::1]']) assert.equal(isLoopbackAddress(h), true, h);
  for (const h of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '127.0.0.1.nip.io', '']) assert.equal(isLoopbackAddress(h), false, h);
});
