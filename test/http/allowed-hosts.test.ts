// Issue 16 #6: SVC_ALLOWED_HOSTS over inject(): a TLS reverse proxy on this
// machine forwards its public name; the rebinding guard lets it through and
// still refuses every other name. The real-socket and upgrade checks are in
// test/e2e/allowed-hosts.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';

void test('DNS rebinding guard (issue 16 #6): an allowed host passes (Host and Origin); other hosts still get 403', async (t) => {
  const { app, runtime } = await buildTestApp(t, { env: { SVC_ALLOWED_HOSTS: 'dash.example.com, Other.Example.org' } });
  runtime.setBoundPort(18790);
  const viaProxy = await app.inject({ method: 'GET', url: '/api/settings', headers: { host: 'dash.example.com', origin: 'https://dash.example.com' } });
  assert.equal(viaProxy.statusCode, 200);
  const second = await app.inject({ method: 'GET', url: '/api/settings', headers: { host: 'other.example.org:443' } });
  assert.equal(second.statusCode, 200);
  // A write from the proxied page (its Origin is the proxy's, its port not svc's) is taken.
  const write = await app.inject({ method: 'POST', url: '/api/settings', headers: { host: '127.0.0.1:18790', origin: 'https://dash.example.com:8443' }, payload: { firstRunDismissedAt: 5 } });
  assert.equal(write.statusCode, 200);
  for (const headers of [{ host: 'evil.example' }, { host: 'dash.example.com.evil.example' }, { host: 'dash.example.com', origin: 'https://evil.example' }]) {
    const res = await app.inject({ method: 'POST', url: '/api/settings', headers, payload: { gatewayUrl: 'ws://evil:1' } });
    assert.equal(res.statusCode, 403, JSON.stringify(headers));
    assert.match(String(res.json().error), /^forbidden: /);
  }
});

void test('DNS rebinding guard (issue 16 #6): without SVC_ALLOWED_HOSTS the proxy\'s name is refused', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ method: 'GET', url: '/api/settings', headers: { host: 'dash.example.com' } });
  assert.equal(res.statusCode, 403);
  assert.deepEqual(res.json(), { error: 'forbidden: Host header is not a loopback name' });
});
