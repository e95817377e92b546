// Issue 30 #5 end to end: a person already runs a REAL OpenClaw gateway
// (openclaw@2026.9.6 on Node 24, the fake model its only provider), started
// by this test outside svc. svc starts on a free port with that gateway's
// state directory but settings that name another gateway (what a stale
// settings.json, or a first svc pointed elsewhere, looks like). Setup's
// routes then find it, connect to it, and svc's gateway link is connected:
// GET /api/health (after a recheck) and the detection say so. One gateway
// for the file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadOrCreateDeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { startFakeModel, type FakeModel } from '../helpers/fake-model.ts';
import {
  ensureGatewayInstalled, gatewayEnv, OPENCLAW_VERSION, prepareGatewayState, startRealGateway, waitForConnect, type StartedGateway,
} from '../helpers/real-gateway.ts';
import { freePort, removeHome, startServer, tempHome, type RunningServer } from '../helpers/server.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;

let model: FakeModel;
let home: string;
let stateDir: string;
let gwPort: number;
let token: string;
let gateway: StartedGateway | undefined;
let svc: RunningServer | undefined;

before(async () => {
  const install = await ensureGatewayInstalled();
  model = await startFakeModel();
  home = tempHome('svc-existing-gw-');
  stateDir = join(home, 'their-gateway');
  gwPort = await freePort();
  token = `test-${randomBytes(12).toString('hex')}`;
  prepareGatewayState(stateDir, { port: gwPort, token, modelUrl: model.url });
  gateway = startRealGateway(install, stateDir, gwPort);
  // Their gateway is up (it accepts a connect) before svc looks: the person ran it earlier.
  await waitForConnect(`ws://127.0.0.1:${gwPort}`, token, loadOrCreateDeviceIdentity(join(home, 'probe-identity.json')));
  // svc's settings name another gateway, so svc is not connected to theirs until Setup connects it.
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ gateway: { url: `ws://localhost:${await freePort()}`, token: 'stale-token' } }), { mode: 0o600 });
  // svc finds the CLI the way the person's shell does (Node 24 and openclaw first on PATH).
  svc = await startServer({ home, env: { ...gatewayEnv(install, stateDir), OPENCLAW_STATE_DIR: stateDir } });
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gateway?.stop();
  await model?.close();
  if (home) removeHome(home);
});

async function getJson(path: string, init?: RequestInit): Promise<{ status: number; text: string; body: Record<string, unknown> }> {
  const res = await fetch(`${svc?.base}${path}`, { ...init, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

const gatewayCheck = async () => {
  const health = await getJson('/api/health/recheck', { method: 'POST' });
  return (health.body.checks as Array<{ id: string; ok: boolean; message: string }>).find((c) => c.id === 'gatewayReachable');
};

void test('Issue 30 #5: Setup finds a real gateway running outside svc, connects to it, and svc\'s gateway link is connected', async () => {
  const found = await getJson('/api/system/existing-gateway');
  assert.equal(found.status, 200, found.text);
  assert.deepEqual(found.body, {
    found: true,
    stateDir,
    configExists: true,
    envExists: true,
    tokenPresent: true,
    tokenSource: 'env-file',
    tokenVariable: 'OPENCLAW_GATEWAY_TOKEN',
    port: gwPort,
    portSource: 'config',
    url: `ws://localhost:${gwPort}`,
    running: true,
    probe: 'accepted',
    probeCode: null,
    cli: { installed: true, version: OPENCLAW_VERSION },
    svc: { pointsHere: false, connected: false },
  });
  assert.equal((await gatewayCheck())?.ok, false, 'svc is not connected to their gateway yet');

  const connect = await getJson('/api/system/connect-existing-gateway', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(connect.status, 200, connect.text);
  assert.deepEqual(connect.body, {
    ok: true,
    gatewayUrl: `ws://localhost:${gwPort}`,
    port: gwPort,
    tokenFrom: 'reference',
    tokenVariable: 'OPENCLAW_GATEWAY_TOKEN',
    connected: true,
    link: { state: 'connected', error: null },
  });

  const check = await gatewayCheck();
  assert.equal(check?.ok, true, JSON.stringify(check));
  assert.equal(check?.message, `gateway connected at ws://localhost:${gwPort}`);
  const after = await getJson('/api/system/existing-gateway');
  assert.deepEqual(after.body.svc, { pointsHere: true, connected: true });
  const settings = await getJson('/api/settings');
  assert.deepEqual(settings.body, { gatewayUrl: `ws://localhost:${gwPort}`, hasToken: true, firstRunDismissedAt: null });
  for (const r of [found, connect, after, settings]) assert.ok(!r.text.includes(token), 'no answer holds the token');
  assert.ok(!(svc?.output() ?? '').includes(token), 'no log line holds the token');
});
