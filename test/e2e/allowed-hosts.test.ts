// Issue 16 #6: SVC_ALLOWED_HOSTS on a real socket, as a TLS reverse proxy on
// this machine would reach svc: its public name as Host, its pages' Origin,
// and the gateway WebSocket upgrade through it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopAfter } from '../helpers/server.ts';
import { rawRequest, tryUpgrade } from '../helpers/http.ts';

void test('DNS rebinding guard (issue 16 #6): a real request and upgrade through an allowed host pass; other hosts still get 403 and a destroyed socket', async (t) => {
  const s = stopAfter(t, await startServer({ env: { SVC_ALLOWED_HOSTS: 'dash.example.com' } }));
  const proxied = { host: 'dash.example.com', origin: 'https://dash.example.com' };
  assert.equal((await rawRequest(s.port, { path: '/api/settings', headers: proxied })).status, 200);
  const write = await rawRequest(s.port, {
    method: 'POST', path: '/api/settings', headers: { ...proxied, 'content-type': 'application/json' }, body: '{"firstRunDismissedAt":5}',
  });
  assert.equal(write.status, 200);
  assert.equal((await rawRequest(s.port, { path: '/api/settings', headers: { host: 'evil.example' } })).status, 403);
  assert.equal((await rawRequest(s.port, { path: '/api/settings', headers: { host: 'dash.example.com', origin: 'https://evil.example' } })).status, 403);
  // The upgrade follows the same rule (with no gateway, the proxy takes the upgrade and then closes it).
  assert.equal(await tryUpgrade(s.port, '/api/gateway/ws', { Host: 'dash.example.com', Origin: 'https://dash.example.com' }), 'HTTP/1.1 101 Switching Protocols');
  assert.equal(await tryUpgrade(s.port, '/api/gateway/ws', { Host: 'evil.example' }), 'destroyed');
  assert.equal(await tryUpgrade(s.port, '/api/gateway/ws', { Host: 'dash.example.com', Origin: 'https://evil.example' }), 'destroyed');
});
