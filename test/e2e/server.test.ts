// End-to-end on real sockets: svc started as a child process with a
// temporary SVC_HOME. Bind refusal, the gate and cookie, the body limit,
// DNS rebinding, WebSocket upgrades, graceful shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { freePort, ingestWorkerStats, removeHome, startServer, stopAfter, tempHome, untilIngestWorkerServes } from '../helpers/server.ts';
import { rawRequest, tryUpgrade } from '../helpers/http.ts';

void test('Authentication 7: binding a non-loopback address without a token prints SECURITY: and exits 1', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const s = await startServer({ home, env: { HOST: '0.0.0.0' }, waitFor: 'exit' });
  assert.equal(s.proc.exitCode, 1);
  assert.match(s.output(), /^SECURITY: /m);
  assert.equal(existsSync(join(home, 'api-port.txt')), false);
});

void test('State directory: api-port.txt holds the bound port; graceful shutdown removes it and exits 0', async (t) => {
  const s = await startServer();
  t.after(async () => {
    await s.stop('SIGKILL');
    removeHome(s.home);
  });
  assert.equal(readFileSync(join(s.home, 'api-port.txt'), 'utf8').trim(), String(s.port));
  // An SSE stream is open while we shut down: it is closed, not waited on forever.
  const ac = new AbortController();
  const stream = await fetch(`${s.base}/api/obs/stream`, { signal: ac.signal });
  assert.equal(stream.status, 200);
  // A hijacked SSE answer keeps the anti-framing headers the hook set (issue 15 #11).
  assert.equal(stream.headers.get('x-frame-options'), 'DENY');
  assert.match(stream.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  const inflight = fetch(`${s.base}/api/health`).then((r) => r.status);
  const code = await s.stop('SIGTERM');
  ac.abort();
  assert.equal(code, 0, s.output());
  assert.equal(await inflight, 200, 'the in-flight request finished');
  assert.equal(existsSync(join(s.home, 'api-port.txt')), false);
  // The WAL was checkpointed and the database closed cleanly.
  const db = new Database(join(s.home, 'svc.db'), { readonly: true });
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  db.close();
  assert.equal(existsSync(join(s.home, 'svc.db-wal')) ? readFileSync(join(s.home, 'svc.db-wal')).length : 0, 0);
});

void test('Security (issue 33 #6): a state folder left 0755 is narrowed to 0700 at start, and svc.db is 0600', async (t) => {
  const home = tempHome();
  chmodSync(home, 0o755);
  const s = stopAfter(t, await startServer({ home }));
  assert.equal(statSync(s.home).mode & 0o777, 0o700);
  assert.equal(statSync(join(s.home, 'svc.db')).mode & 0o777, 0o600);
  assert.equal((await fetch(`${s.base}/api/health`)).status, 200);
});

void test('Authentication 2-4: the gate and its cookie on a real socket; upgrades refused without the cookie', async (t) => {
  const token = 'e2e-token-42';
  const s = stopAfter(t, await startServer({ env: { STUDIO_ACCESS_TOKEN: token } }));
  const denied = await fetch(`${s.base}/api/settings`);
  assert.equal(denied.status, 401);
  assert.deepEqual(await denied.json(), { error: 'access token required', service: 'svc' });
  const granted = await fetch(`${s.base}/api/settings?access_token=${token}`);
  assert.equal(granted.status, 200);
  const cookie = (granted.headers.get('set-cookie') ?? '').split(';')[0] as string;
  assert.match(cookie, /^svc_access=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  assert.ok(!cookie.includes(token), 'the cookie holds a session, not the token (issue 15 #12)');
  assert.equal((await fetch(`${s.base}/api/health`, { headers: { cookie } })).status, 200);
  assert.equal((await fetch(`${s.base}/api/health`, { headers: { cookie: `svc_access=${token}` } })).status, 401);
  assert.equal(await tryUpgrade(s.port, '/api/gateway/ws'), 'destroyed');
  assert.equal(await tryUpgrade(s.port, '/api/gateway/ws', { cookie: `svc_access=${token}` }), 'destroyed');
  assert.equal(await tryUpgrade(s.port, '/api/gateway/ws', { cookie }), 'HTTP/1.1 101 Switching Protocols', 'with the cookie the proxy takes the upgrade');
});

void test('Process model: every upgrade path but /api/gateway/ws is destroyed; the proxy path upgrades and, with no gateway, closes with 1014', async (t) => {
  const deadPort = await freePort();
  const s = stopAfter(t, await startServer());
  await fetch(`${s.base}/api/settings`, { method: 'POST', body: JSON.stringify({ gatewayUrl: `ws://127.0.0.1:${deadPort}` }), headers: { 'content-type': 'application/json' } });
  assert.equal(await tryUpgrade(s.port, '/api/obs/stream'), 'destroyed');
  assert.equal(await tryUpgrade(s.port, '/'), 'destroyed');
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/api/gateway/ws`);
  const [code, reason] = await new Promise<[number, string]>((resolve) => ws.once('close', (c, r) => resolve([c, r.toString()])));
  assert.equal(code, 1014);
  assert.match(reason, /gateway unreachable/);
  // The front door still answers afterwards.
  assert.equal((await fetch(`${s.base}/api/settings`)).status, 200);
});

void test('Limits: a 3 MB body on a real socket gets 413 and nothing is written', async (t) => {
  const s = stopAfter(t, await startServer());
  const payload = JSON.stringify({ events: [{ kind: 'tool_call', data: { blob: 'y'.repeat(3 * 1024 * 1024) } }] });
  const res = await rawRequest(s.port, { method: 'POST', path: '/api/obs/ingest', headers: { 'content-type': 'application/json' }, body: payload });
  assert.equal(res.status, 413);
  assert.match(JSON.parse(res.body).error, /too large/);
  const db = new Database(join(s.home, 'svc.db'), { readonly: true });
  t.after(() => db.close());
  assert.equal(db.prepare('SELECT COUNT(*) FROM events').pluck().get(), 0);
  assert.equal((await fetch(`${s.base}/api/settings`)).status, 200);
});

void test('Events → POST /api/obs/ingest on a real server: the ingest worker parses the bytes; a body that is not JSON gets 400 and writes nothing, a malformed row is skipped', async (t) => {
  const s = stopAfter(t, await startServer());
  const ingestStats = () => ingestWorkerStats(s.base);
  // The worker answers for its counters once it serves its channel; from then on batches go to it.
  assert.deepEqual(await untilIngestWorkerServes(s.base), { batches: 0, events: 0, badBodies: 0, calls: 0 });
  const post = (body: string) =>
    rawRequest(s.port, { method: 'POST', path: '/api/obs/ingest', headers: { 'content-type': 'application/json' }, body });
  for (const body of ['{"events":[{"kind":', '', '{"__proto__":{"polluted":1},"events":[]}', '{"constructor":{"prototype":{"x":1}}}']) {
    const res = await post(body);
    assert.equal(res.status, 400, body);
    assert.deepEqual(JSON.parse(res.body), { error: 'invalid JSON' });
  }
  const ok = await post(JSON.stringify({ events: [
    { kind: 'tool_call', teamId: 'tm', data: { tool: 'grep', apiKey: 'sk-live-1234567890abcdef' } },
    { kind: 'task_created', teamId: 'tm' },
    { kind: 'error', teamId: 'tm', data: 'not an object' },
  ] }));
  assert.equal(ok.status, 200);
  assert.deepEqual(JSON.parse(ok.body), { ok: true, count: 2 });
  assert.deepEqual(await ingestStats(), { batches: 1, events: 2, badBodies: 4, calls: 0 }, 'the worker handled every body');
  const { events } = (await (await fetch(`${s.base}/api/obs/events?teamId=tm`)).json()) as { events: Array<{ kind: string; data: string }> };
  assert.deepEqual(events.map((e) => e.kind), ['tool_call', 'error']);
  assert.ok(!events[0]?.data.includes('sk-live-1234567890abcdef'), 'the key was masked on write');
  assert.equal(events[1]?.data, '{}');
});

void test('DNS rebinding guard: a real request with a foreign Host or Origin is refused with 403, upgrades too', async (t) => {
  const s = stopAfter(t, await startServer());
  const host = await rawRequest(s.port, { path: '/api/settings', headers: { host: `attacker.example:${s.port}` } });
  assert.equal(host.status, 403);
  const origin = await rawRequest(s.port, { method: 'POST', path: '/api/settings', headers: { origin: 'http://attacker.example', 'content-type': 'application/json' }, body: '{"gatewayUrl":"ws://evil:1"}' });
  assert.equal(origin.status, 403);
  assert.equal(existsSync(join(s.home, 'settings.json')), false);
  const sameOrigin = await rawRequest(s.port, { method: 'POST', path: '/api/settings', headers: { origin: `http://localhost:${s.port}`, 'content-type': 'application/json' }, body: '{"firstRunDismissedAt":5}' });
  assert.equal(sameOrigin.status, 200);
  assert.equal(await tryUpgrade(s.port, '/api/gateway/ws', { Host: 'attacker.example' }), 'destroyed');
});

void test('Security (issue 15 #11): a request the HTTP parser refuses gets its 400 with the anti-framing headers', async (t) => {
  const s = stopAfter(t, await startServer());
  const { connect } = await import('node:net');
  const reply = await new Promise<string>((resolve) => {
    const sock = connect({ host: '127.0.0.1', port: s.port });
    let data = '';
    sock.on('connect', () => sock.write('GET api/settings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    sock.on('data', (d: Buffer) => (data += d.toString()));
    sock.on('error', () => undefined);
    sock.on('close', () => resolve(data));
  });
  assert.match(reply, /^HTTP\/1\.1 400 Bad Request\r\n/);
  assert.match(reply, /\r\nx-frame-options: DENY\r\n/i);
  assert.match(reply, /\r\ncontent-security-policy: [^\r]*frame-ancestors 'none'/i);
  assert.equal((await fetch(`${s.base}/api/settings`)).status, 200, 'the server keeps answering');
});
