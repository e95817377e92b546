// Issue 16 #6: the rebinding guard's allowed hosts
// (supervisor/http/plugins/host-header-guard.ts), for a TLS reverse proxy on this
// machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowedHostNames, hostGuardVerdict, type HostGuardOptions } from '../../supervisor/http/plugins/host-header-guard.ts';

const guard = (allowed: readonly string[], over: Partial<HostGuardOptions> = {}): HostGuardOptions => ({
  enabled: true, trustedOrigin: null, boundPort: () => 18790, allowedHosts: allowedHostNames(allowed), ...over,
});

void test('DNS rebinding guard (issue 16 #6): an allowed host passes as Host on any port, as an http(s) Origin on any port', () => {
  const g = guard(['dash.example.com']);
  for (const host of ['dash.example.com', 'DASH.example.com:443', 'dash.example.com:8443', '127.0.0.1:18790']) {
    assert.equal(hostGuardVerdict({ host }, g), null, host);
  }
  for (const origin of ['https://dash.example.com', 'https://dash.example.com:8443', 'http://dash.example.com', 'HTTPS://Dash.Example.COM']) {
    assert.equal(hostGuardVerdict({ host: 'dash.example.com', origin }, g), null, origin);
    // nginx forwards svc's own address as Host unless told otherwise: the Origin alone is the proxy's name.
    assert.equal(hostGuardVerdict({ host: '127.0.0.1:18790', origin }, g), null, origin);
  }
});

void test('DNS rebinding guard (issue 16 #6): names that only look like an allowed host are still refused', () => {
  const g = guard(['dash.example.com']);
  for (const host of ['evil.example', 'dash.example.com.evil.example', 'evil-dash.example.com', 'x.dash.example.com', 'dash.example', '']) {
    assert.equal(hostGuardVerdict({ host }, g), 'Host header is not a loopback name', host);
  }
  for (const origin of ['https://evil.example', 'https://dash.example.com.evil.example', 'ws://dash.example.com', 'null',
    'https://x.dash.example.com', 'https://localhost:3000']) {
    assert.equal(hostGuardVerdict({ host: 'dash.example.com', origin }, g), 'Origin is not this dashboard', origin);
  }
  // With no allowed hosts the guard is what it was.
  assert.equal(hostGuardVerdict({ host: 'dash.example.com' }, guard([])), 'Host header is not a loopback name');
  assert.equal(hostGuardVerdict({ host: 'localhost', origin: 'https://dash.example.com' }, guard([])), 'Origin is not this dashboard');
  // A guard that is off (a non-loopback bind) passes everything, as before.
  assert.equal(hostGuardVerdict({ host: 'evil.example' }, guard(['dash.example.com'], { enabled: false })), null);
});

void test('DNS rebinding guard (issue 16 #6): allowed hosts are compared lowercased, IPv6 in brackets, a written port dropped', () => {
  assert.deepEqual(allowedHostNames(['Dash.Example.COM', 'fd00::1', '[fd00::2]', 'proxy.lan:8443', ' ', 'dash.example.com']),
    ['dash.example.com', '[fd00::1]', '[fd00::2]', 'proxy.lan']);
  const g = guard(['fd00::1', 'proxy.lan:8443']);
  assert.equal(hostGuardVerdict({ host: '[fd00::1]:8443', origin: 'https://[fd00::1]:8443' }, g), null);
  assert.equal(hostGuardVerdict({ host: 'proxy.lan', origin: 'https://proxy.lan' }, g), null);
});
