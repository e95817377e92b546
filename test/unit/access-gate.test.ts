// supervisor/http/plugins/access-gate.ts (spec "Authentication" 1-7) and
// supervisor/http/plugins/host-header-guard.ts (the DNS-rebinding guard, beyond the
// spec).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { createLogger } from '../../shared/log.ts';
import { createGate, gateVerdict, parseCookies, type Gate, type GateVerdict } from '../../supervisor/http/plugins/access-gate.ts';
import { hostGuardVerdict, isLoopbackAddress, type HostGuardOptions } from '../../supervisor/http/plugins/host-header-guard.ts';

const TOKEN = 'Secret-Token_1.2~3';
// The cookie's value is a fresh session each time (id.HMAC, base64url); its attributes are fixed.
const SESSION_COOKIE = /^svc_access=[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=2592000$/;

/** The verdict for an unmatched target (the 404 path), as the router would hand it over. */
const verdict = (gate: Gate, method: string, url: string, headers: IncomingHttpHeaders = {}, matched = false) =>
  gateVerdict(gate, { method, url, headers, matched });

/** A verdict with its fresh cookie checked and replaced by a marker, so the rest can be compared. */
function shape(v: GateVerdict, secure = false): unknown {
  if (v.kind === 'deny' || !v.setCookie) return v;
  assert.match(v.setCookie.replace(/; Secure$/, ''), SESSION_COOKIE);
  assert.equal(v.setCookie.endsWith('; Secure'), secure, v.setCookie);
  assert.ok(!v.setCookie.includes(TOKEN), 'the cookie never holds the token');
  return { ...v, setCookie: 'SESSION' };
}

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
    assert.deepEqual(verdict(gate, 'POST', '/api/settings', {}, true), { kind: 'pass' });
    assert.equal(gate.matches(''), false);
    assert.deepEqual(lines, []);
  }
});

void test('Authentication 5: a token with a character outside [A-Za-z0-9._~-] disables the gate loudly', (t) => {
  for (const token of ['has space', 'semi;colon', 'slash/1', 'tök', 'a+b']) {
    const { gate, lines, consoleError } = gateFor(t, token);
    assert.equal(gate.enabled, false, token);
    assert.deepEqual(verdict(gate, 'GET', '/api/settings', {}, true), { kind: 'pass' });
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
    assert.deepEqual(verdict(gate, 'GET', url), { kind: 'deny' }, url);
  }
  for (const url of ['/', '/apix', '/teams/1', '/assets/app.js', '/index.html?api=1']) {
    assert.deepEqual(verdict(gate, 'GET', url), { kind: 'pass' }, url);
  }
});

void test('Authentication 3: a percent-encoded /api/ path (which the router decodes) is gated too', (t) => {
  const { gate } = gateFor(t, TOKEN);
  // find-my-way routes /%61pi/settings to /api/settings, so it must not slip past the gate.
  for (const url of ['/%61pi/settings', '/%41PI/settings', '/ap%69/health']) {
    assert.deepEqual(verdict(gate, 'GET', url), { kind: 'deny' }, url);
  }
});

void test('Authentication 2: a query token on a page visit redirects without the token and sets a session cookie', (t) => {
  const { gate } = gateFor(t, TOKEN);
  assert.deepEqual(shape(verdict(gate, 'GET', `/teams?access_token=${TOKEN}&tab=2`)), {
    kind: 'redirect', location: '/teams?tab=2', setCookie: 'SESSION',
  });
  assert.deepEqual(shape(verdict(gate, 'HEAD', `/?access_token=${TOKEN}`)), { kind: 'redirect', location: '/', setCookie: 'SESSION' });
  assert.deepEqual(shape(verdict(gate, 'POST', `/page?access_token=${TOKEN}`)), { kind: 'pass', setCookie: 'SESSION' });
});

void test('Authentication 2: a query token on /api passes and sets a session cookie; a wrong one falls back to the cookie', (t) => {
  const { gate } = gateFor(t, TOKEN);
  const session = (gate.setCookieHeader(false).split(';')[0] as string);
  assert.deepEqual(shape(verdict(gate, 'GET', `/api/settings?access_token=${TOKEN}`, {}, true)), { kind: 'pass', setCookie: 'SESSION' });
  assert.deepEqual(shape(verdict(gate, 'POST', `/API/obs/ingest?x=1&access_token=${TOKEN}`)), { kind: 'pass', setCookie: 'SESSION' });
  assert.deepEqual(verdict(gate, 'GET', '/api/settings?access_token=wrong', {}, true), { kind: 'deny' });
  assert.deepEqual(verdict(gate, 'GET', '/api/settings?access_token=wrong', { cookie: session }, true), { kind: 'pass' });
  // A wrong query token on a page is not a redirect and sets nothing.
  assert.deepEqual(verdict(gate, 'GET', '/teams?access_token=wrong'), { kind: 'pass' });
});

void test('Authentication 2: the cookie is Secure only behind X-Forwarded-Proto https', (t) => {
  const { gate } = gateFor(t, TOKEN);
  const url = `/api/x?access_token=${TOKEN}`;
  for (const proto of ['https', 'HTTPS', 'https, http']) {
    assert.deepEqual(shape(verdict(gate, 'GET', url, { 'x-forwarded-proto': proto }, true), true), { kind: 'pass', setCookie: 'SESSION' }, proto);
  }
  for (const proto of [undefined, 'http', 'http, https', 'wss']) {
    assert.deepEqual(shape(verdict(gate, 'GET', url, { 'x-forwarded-proto': proto }, true)), { kind: 'pass', setCookie: 'SESSION' }, proto);
  }
});

void test('Security (issue 15 #12): the cookie holds a session bound to this process and token, never the token', (t) => {
  const { gate } = gateFor(t, TOKEN);
  const a = gate.setCookieHeader(false).split(';')[0] as string;
  const b = gate.setCookieHeader(false).split(';')[0] as string;
  assert.notEqual(a, b, 'each visit mints its own session');
  assert.ok(!a.includes(TOKEN));
  assert.deepEqual(verdict(gate, 'GET', '/api/x', { cookie: `x=1; ${a}; y=2` }, true), { kind: 'pass' });
  assert.deepEqual(verdict(gate, 'GET', '/api/x', { cookie: b }, true), { kind: 'pass' });
  // The raw token as the cookie value is no longer a credential.
  assert.deepEqual(verdict(gate, 'GET', '/api/x', { cookie: `svc_access=${TOKEN}` }, true), { kind: 'deny' });
  assert.deepEqual(verdict(gate, 'GET', '/api/x', { cookie: `svc_access=${encodeURIComponent(TOKEN)}` }, true), { kind: 'deny' });
  // A restart (another process secret) or another token: every earlier session is void.
  const { gate: restarted } = gateFor(t, TOKEN);
  const { gate: otherToken } = gateFor(t, 'another-token');
  assert.deepEqual(verdict(restarted, 'GET', '/api/x', { cookie: a }, true), { kind: 'deny' });
  assert.deepEqual(verdict(otherToken, 'GET', '/api/x', { cookie: a }, true), { kind: 'deny' });
  // Tampered sessions: another id with the same MAC, a cut MAC, no MAC, garbage.
  const [id, mac] = a.slice('svc_access='.length).split('.') as [string, string];
  const forged = [`${id}x.${mac}`, `${id}.${mac.slice(0, -2)}`, `${id}.`, id, `.${mac}`, `${id}.${mac}.x`, '%E0%A4%A', ''];
  for (const value of forged) {
    assert.deepEqual(verdict(gate, 'GET', '/api/x', { cookie: `svc_access=${value}` }, true), { kind: 'deny' }, value);
  }
  assert.equal(gate.matches(null), false);
  assert.equal(gate.matches(TOKEN), true);
});

void test('Security (issue 15 #1, decision 2): Authorization: Bearer <token> passes without a cookie; nothing else does', (t) => {
  const { gate } = gateFor(t, TOKEN);
  for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `Bearer  ${TOKEN} `]) {
    assert.deepEqual(verdict(gate, 'POST', '/api/mcp/tasks', { authorization }, true), { kind: 'pass' }, authorization);
  }
  for (const authorization of [`Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN, `Bearer`, `Bearer ${TOKEN} extra`, '']) {
    assert.deepEqual(verdict(gate, 'POST', '/api/mcp/tasks', { authorization }, true), { kind: 'deny' }, authorization);
  }
});

void test('Security (issue 15 #1): a matched route is gated whatever its target looked like; an unmatched one by its normalised path', (t) => {
  const { gate } = gateFor(t, TOKEN);
  // The router matched: deny by default, even for a target that does not read as /api.
  for (const url of ['http://127.0.0.1:1/api/settings', 'HTTPS://x/api/settings?y=1', '/whatever', '*']) {
    assert.deepEqual(verdict(gate, 'GET', url, {}, true), { kind: 'deny' }, url);
  }
  // Unmatched: every spelling of an /api path is denied; a page is not.
  for (const url of ['http://evil.example/api/settings', '//api/settings', '/\\api/settings', '/api\\settings', '\\api\\settings',
    '/x/../api/settings', '/./api/settings', '/x/%2e%2e/api/settings', '/%2fapi/settings', '/%5capi', '/API//settings',
    'http://h//API/settings', 'api/settings', '/%zz/page']) {
    assert.deepEqual(verdict(gate, 'GET', url), { kind: 'deny' }, url);
    assert.deepEqual(verdict(gate, 'POST', url), { kind: 'deny' }, url);
  }
  for (const url of ['http://h/teams', '//teams', '/api/../teams', '/apix/settings']) {
    assert.deepEqual(verdict(gate, 'GET', url), { kind: 'pass' }, url);
  }
});

void test('Security (issue 15 #12): the ?access_token= redirect never leaves the origin', (t) => {
  const { gate } = gateFor(t, TOKEN);
  const cases: Array<[string, string]> = [
    [`//evil.example?access_token=${TOKEN}`, '/evil.example'],
    [`//evil.example/path?access_token=${TOKEN}&a=1`, '/evil.example/path?a=1'],
    [`/\\evil.example?access_token=${TOKEN}`, '/evil.example'],
    [`/%2F%2Fevil.example?access_token=${TOKEN}`, '/evil.example'],
    [`/%5C%5Cevil.example?access_token=${TOKEN}`, '/evil.example'],
    [`http://evil.example/?access_token=${TOKEN}`, '/'],
    [`http://evil.example?access_token=${TOKEN}`, '/'],
    [`/..//evil.example?access_token=${TOKEN}`, '/evil.example'],
    [`/%0d%0aSet-Cookie:x=1?access_token=${TOKEN}`, '/%0D%0ASet-Cookie%3Ax%3D1'],
    [`/a/https:%2f%2fevil.example?access_token=${TOKEN}`, '/a/https%3A/evil.example'],
  ];
  for (const [url, location] of cases) {
    const v = verdict(gate, 'GET', url);
    assert.equal(v.kind, 'redirect', url);
    assert.equal(v.kind === 'redirect' && v.location, location, url);
    if (v.kind === 'redirect') {
      assert.match(v.location, /^\/(?![/\\])/, 'exactly one leading slash');
      assert.equal(new URL(v.location, 'http://127.0.0.1:18790').origin, 'http://127.0.0.1:18790', url);
    }
  }
});

void test('Authentication 2: parseCookies trims, decodes, skips parts without = and keeps a bad escape raw', () => {
  const m = parseCookies(' a=1; b = x%20y ;bad; c=%E0%A4%A; d=p=q');
  assert.deepEqual([...m], [['a', '1'], ['b', 'x y'], ['c', '%E0%A4%A'], ['d', 'p=q']]);
  assert.equal(parseCookies(undefined).size, 0);
});

const guard = (over: Partial<HostGuardOptions> = {}): HostGuardOptions => ({
  enabled: true, trustedOrigin: null, boundPort: () => 18790, ...over,
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

void test('Security (issue 15 #10): development trusts the one dev origin besides its own, no other; a disabled guard passes everything', () => {
  const dev = guard({ trustedOrigin: 'http://localhost:5173' });
  for (const origin of ['http://localhost:5173', 'HTTP://LOCALHOST:5173', 'http://localhost:5173/', 'http://localhost:18790']) {
    assert.equal(hostGuardVerdict({ host: 'localhost', origin }, dev), null, origin);
  }
  for (const origin of ['http://evil.com', 'null', 'http://localhost:5174', 'https://localhost:5173', 'http://127.0.0.1:5173']) {
    assert.equal(hostGuardVerdict({ host: 'localhost', origin }, dev), 'Origin is not this dashboard', origin);
  }
  assert.equal(hostGuardVerdict({ host: 'evil.com', origin: 'http://localhost:5173' }, dev), 'Host header is not a loopback name');
  assert.equal(hostGuardVerdict({ host: 'evil.com', origin: 'null' }, guard({ enabled: false })), null);
  assert.equal(hostGuardVerdict({}, guard({ enabled: false })), null);
});

void test('Authentication 7: isLoopbackAddress knows the loopback bind addresses', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', ' LOCALHOST ', '::1', '[::1]']) assert.equal(isLoopbackAddress(h), true, h);
  for (const h of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '127.0.0.1.nip.io', '']) assert.equal(isLoopbackAddress(h), false, h);
});
