// Spec "Settings and health": GET /api/health, POST /api/health/recheck, the boot report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { CHECKS, type CheckDeps } from '../../shared/health/checks.ts';
import { MASK } from '../../shared/redact.ts';
import { buildTestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/server.ts';

interface Report {
  ok: boolean;
  checks: Array<{ id: string; ok: boolean; message: string; detail?: Record<string, unknown>; durationMs: number }>;
  degraded: string[];
  fatal: string[];
  config: Record<string, unknown>;
  resolved: Record<string, unknown>;
  workers: unknown[];
  startedAt: string;
  finishedAt: string;
}

void test('Boot report → GET /api/health: checks in the spec order, defaults in config, resolved paths, computed on demand', async (t) => {
  const gwPort = await freePort();
  const { app, home, config } = await buildTestApp(t);
  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: `ws://127.0.0.1:${gwPort}` } });
  const res = await app.inject('/api/health');
  assert.equal(res.statusCode, 200);
  const r = res.json() as Report;
  assert.deepEqual(r.checks.map((c) => c.id), [
    'svcHomeWritable', 'vaultPerms', 'masterKeyBootSentinel', 'databaseIntegrity', 'databaseSchema',
    'apiPortFileMatches', 'mcpServersHealthy', 'gatewayReachable',
  ]);
  assert.equal(r.ok, true);
  assert.deepEqual(r.fatal, []);
  assert.deepEqual(r.degraded, ['gatewayReachable'], 'nothing listens on the gateway port');
  const byId = new Map(r.checks.map((c) => [c.id, c]));
  assert.equal(byId.get('databaseIntegrity')?.message, 'integrity_check ok');
  assert.equal(byId.get('vaultPerms')?.detail?.skipped, true, 'fresh install: no secrets dir yet');
  assert.equal(byId.get('apiPortFileMatches')?.detail?.skipped, true, 'no port bound in inject tests');
  // The four in-process MCP servers answer tools/list (web_search is hidden without SVC_SEARCH_URL).
  const mcp = byId.get('mcpServersHealthy');
  assert.equal(mcp?.ok, true, mcp?.message);
  assert.deepEqual(mcp?.detail?.servers, [
    { name: 'tasks', ok: true, tools: 4 },
    { name: 'memory', ok: true, tools: 3 },
    { name: 'tools', ok: true, tools: 3 },
    { name: 'teamchat', ok: true, tools: 2 },
  ]);
  assert.deepEqual(r.config, {
    logLevel: 'info', budgetPosture: 'track-and-warn', budgetHardCapUsdCents: null,
    budgetWarnSoftPct: 80, otelEnabledByDefault: false, otelActive: false,
  });
  assert.equal(r.resolved.svcHome, home);
  assert.equal(r.resolved.dbPath, `${home}/svc.db`);
  assert.equal(r.resolved.stateDir, config.gatewayStateDir);
  assert.equal(r.resolved.apiPort, null);
  assert.ok(Date.parse(r.finishedAt) >= Date.parse(r.startedAt));
  for (const c of r.checks) assert.equal(typeof c.durationMs, 'number');

  // Something that is not a gateway starts answering on the port: a recheck
  // sees the port, but without a protocol handshake the gateway is not
  // reachable (the real handshake is covered in test/gateway/gateway.test.ts).
  const gw = createServer((s) => s.end());
  await new Promise<void>((resolve) => gw.listen(gwPort, '127.0.0.1', resolve));
  t.after(() => gw.close());
  const again = (await app.inject({ method: 'POST', url: '/api/health/recheck' })).json() as Report;
  assert.deepEqual(again.degraded, ['gatewayReachable']);
  const gwCheck = again.checks.find((c) => c.id === 'gatewayReachable');
  assert.equal(gwCheck?.ok, false);
  assert.equal(gwCheck?.detail?.tcp, true);
  assert.match(String(gwCheck?.message), /answers but the handshake did not complete/);
});

void test('GET /api/health: a broken schema is fatal and ok is false', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.db.exec('ALTER TABLE chat_messages DROP COLUMN created_at');
  const r = (await app.inject({ method: 'POST', url: '/api/health/recheck' })).json() as Report;
  assert.equal(r.ok, false);
  assert.deepEqual(r.fatal, ['databaseSchema']);
  assert.match(r.checks.find((c) => c.id === 'databaseSchema')?.message ?? '', /chat_messages\.created_at/);
});

void test('GET /api/health: the OTLP check runs only when an endpoint is set, and otelActive follows it', async (t) => {
  const collector = createHttpServer((_req, res) => res.writeHead(405).end());
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  t.after(() => collector.close());
  const port = (collector.address() as { port: number }).port;
  const { app } = await buildTestApp(t, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` } });
  const r = (await app.inject('/api/health')).json() as Report;
  assert.equal(r.config.otelActive, true);
  const otel = r.checks.find((c) => c.id === 'otelExporterReachable');
  assert.equal(otel?.ok, true);
  assert.match(otel?.message ?? '', /HTTP 405/);
});

void test('GET /api/health: the report is redacted', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const port = await freePort();
  const url = `ws://127.0.0.1:${port}/?token=supersecretvalue99`;
  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: url } });
  // Precondition (issue 16 #5): the report as the health service makes it does
  // carry the secret, so the route has something to redact.
  const raw = await runtime.deps.health.get();
  assert.equal(raw.checks.find((c) => c.id === 'gatewayReachable')?.detail?.url, url, 'the unredacted report holds the token');
  const res = await app.inject('/api/health');
  assert.equal(res.statusCode, 200);
  assert.ok(!res.body.includes('supersecretvalue99'), res.body);
  const gw = (res.json() as Report).checks.find((c) => c.id === 'gatewayReachable');
  assert.equal(gw?.detail?.url, `ws://127.0.0.1:${port}/?token=${MASK}`, 'masked where it was, the rest of the report intact');
});

void test('Security (issue 15 #4): a ws:// gateway URL to a host that is not loopback adds a failed gatewayTransport check (degraded only)', async () => {
  const def = CHECKS.find((c) => c.id === 'gatewayTransport');
  assert.ok(def, 'the check exists');
  assert.equal(def.fatal, false);
  // Only the URL is read: no probe, so nothing here reaches the network.
  const depsFor = (url: string | null) => ({ gatewayUrl: () => url }) as unknown as CheckDeps;
  for (const url of ['ws://gw.example:18789', 'ws://10.0.0.5:18789/', 'WS://192.168.1.20', 'ws://[fd00::1]:18789', 'ws://0.0.0.0:18789']) {
    assert.equal(def.applies?.(depsFor(url)), true, url);
    const out = await def.run(depsFor(url));
    assert.equal(out.ok, false, url);
    assert.match(out.message, /is not loopback: the gateway token crosses the network unencrypted\. Use wss:\/\/ or a loopback address/);
  }
  const first = await def.run(depsFor('ws://gw.example:18789/?token=abc'));
  assert.deepEqual(first.detail, { scheme: 'ws', host: 'gw.example', port: 18789 }, 'host and port only, never the query');
  for (const url of ['wss://gw.example:443', 'ws://localhost:18789', 'ws://127.0.0.1:1', 'ws://127.8.9.10:1', 'ws://[::1]:18789', 'ws://[::ffff:127.0.0.1]:2', null]) {
    assert.equal(def.applies?.(depsFor(url)), false, String(url));
  }
});

void test('Security (issue 15 #4): GET /api/health leaves gatewayTransport out for a loopback ws:// URL (the spec\'s list is unchanged)', async (t) => {
  const { app } = await buildTestApp(t);
  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: `ws://localhost:${await freePort()}` } });
  const r = (await app.inject('/api/health')).json() as Report;
  assert.equal(r.checks.some((c) => c.id === 'gatewayTransport'), false);
});

void test('Security (issue 15 #4): GET /api/health reports a cleartext non-loopback gateway URL in degraded, with ok still true', async (t) => {
  const { app } = await buildTestApp(t);
  // 0.0.0.0 is not a loopback address, yet a connect to it stays on this machine: the test reaches nothing outside.
  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: `ws://0.0.0.0:${await freePort()}` } });
  const r = (await app.inject('/api/health')).json() as Report;
  assert.equal(r.ok, true);
  assert.ok(r.degraded.includes('gatewayTransport'), JSON.stringify(r.degraded));
  const ids = r.checks.map((c) => c.id);
  assert.equal(ids.indexOf('gatewayTransport'), ids.indexOf('gatewayReachable') + 1, 'right after gatewayReachable');
  assert.match(r.checks.find((c) => c.id === 'gatewayTransport')?.message ?? '', /^the gateway URL is ws:\/\/ to 0\.0\.0\.0:\d+, which is not loopback/);
});
