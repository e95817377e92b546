// End to end against a REAL OpenClaw gateway (openclaw@2026.9.6 on Node 24,
// installed once into $HOME/.cache/svc-test) whose only model provider is the
// fake one in test/helpers/fake-model.ts. One gateway for the whole file: the
// slow part (install on first use, ~10-25 s start) is paid once, and the
// gateway is the one svc starts through POST /api/system/gateway.
//
// svc runs as a child process on a real socket with OPENCLAW_STATE_DIR set to
// the gateway's state directory and no gateway settings of its own: it finds
// the URL and token the way a user's installation does, from openclaw.json
// (gateway.port, gateway.auth.token = ${OPENCLAW_GATEWAY_TOKEN}) and .env.
// The tests run in order: start, then everything that needs a running
// gateway, then pairing, restart and stop.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { delimiter, join } from 'node:path';
import WebSocket from 'ws';
import { sendChat } from '../../shared/gateway/chat.ts';
import { connectGateway, type GatewaySession } from '../../shared/gateway/client.ts';
import { loadOrCreateDeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { parseDevicesList } from '../../workers/gateway-host/approve-device.ts';
import { processIdentity } from '../../workers/gateway-host/proc-identity.ts';
import { startFakeModel, type FakeModel } from '../helpers/fake-model.ts';
import { gatewayConfigScenario } from './config-scenario.ts';
import { execScenario } from './exec-scenario.ts';
import { resetContextScenario } from './reset-context.ts';
import { existsSync, readFileSync } from 'node:fs';
import { routingOffFromTheStart } from '../helpers/seed-settings.ts';
import { ensureGatewayInstalled, gatewayEnv, killGroup, OPENCLAW_VERSION, prepareGatewayState, type GatewayInstall } from '../helpers/real-gateway.ts';
import { approveDeviceScenario, postFrames, restartThroughSvc, startThroughSvc, stopThroughSvc } from './lifecycle-scenario.ts';
import { freePort, removeHome, startServer, tempHome, type RunningServer } from '../helpers/server.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;

let model: FakeModel;
let install: GatewayInstall;
let home: string;
let stateDir: string;
let gwPort: number;
let token: string;
let svc: RunningServer;
let direct: GatewaySession | null = null;

before(async () => {
  install = await ensureGatewayInstalled();
  model = await startFakeModel();
  home = tempHome('svc-gateway-e2e-');
  stateDir = join(home, 'gateway-state');
  gwPort = await freePort();
  token = `test-${randomBytes(12).toString('hex')}`;
  prepareGatewayState(stateDir, { port: gwPort, token, modelUrl: model.url });
  // This file proves the gateway host, the proxy and the config routes on the gateway's own model path.
  routingOffFromTheStart(home);
  // The one real install (the last test): npm's global prefix is a folder of
  // this test, first on PATH after Node 24, so what it installs is the CLI
  // svc finds afterwards.
  const env = gatewayEnv(install, stateDir);
  env.PATH = [install.nodeBin, join(home, 'npm-global', 'bin'), install.openclawBin, process.env.PATH ?? ''].join(delimiter);
  svc = await startServer({
    home,
    env: { ...env, SVC_GATEWAY_PACKAGE: `openclaw@${OPENCLAW_VERSION}`, npm_config_prefix: join(home, 'npm-global'), SVC_UPDATE_REGISTRY: 'off' },
  });
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await direct?.close();
  await svc?.stop();
  // A gateway a failed test left running is stopped by its process group.
  const pidFile = join(home, 'gateway.pid');
  if (existsSync(pidFile)) await killGroup((JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid);
  await model?.close();
  if (home) removeHome(home);
});

const gatewayUrl = () => `ws://127.0.0.1:${gwPort}`;
const testIdentity = () => loadOrCreateDeviceIdentity(join(home, 'test-client', 'identity.json'));

void test('Gateway process: svc starts the gateway (frames in order, ready when a connect succeeds), status shows it, a second start is "already running"', async () => {
  const running = await startThroughSvc(svc.base);
  assert.equal(running.port, gwPort);
  // Issue 15 #16: gateway.pid holds the process as the OS reports it once the
  // gateway has renamed itself (openclaw-gateway), so a later svc trusts it.
  const rec = JSON.parse(readFileSync(join(home, 'gateway.pid'), 'utf8')) as { pid: number; procStart: string; cmdline: string };
  assert.equal(rec.pid, running.pid);
  assert.deepEqual({ start: rec.procStart, cmdline: rec.cmdline }, processIdentity(rec.pid));
  // Ready means a connect succeeds, at once, without retrying.
  direct = await connectGateway({ url: gatewayUrl(), token, identity: testIdentity(), version: 'test', connectTimeoutMs: 5000 });
  assert.equal((direct.hello.server as { version?: string }).version, '2026.9.6');
});

/** A browser-like client of the proxy: every frame it receives is kept. */
async function openProxy(headers: Record<string, string> = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${svc.port}/api/gateway/ws`, { headers, perMessageDeflate: false });
  const frames: string[] = [];
  const waiters: Array<{ match: (f: Record<string, unknown>) => boolean; resolve: (f: Record<string, unknown>) => void }> = [];
  ws.on('message', (d) => {
    const text = d.toString();
    frames.push(text);
    const f = JSON.parse(text) as Record<string, unknown>;
    for (const w of [...waiters]) {
      if (w.match(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(f);
      }
    }
  });
  const closed = new Promise<[number, string]>((resolve) => ws.once('close', (c, r) => resolve([c, r.toString()])));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  // A frame can arrive before its waiter is registered (two answers in one
  // read): a waiter first looks through what has already arrived.
  const next = (match: (f: Record<string, unknown>) => boolean, timeoutMs = 30_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = frames.map((t) => JSON.parse(t) as Record<string, unknown>).find(match);
      if (seen) return resolve(seen);
      const timer = setTimeout(() => reject(new Error(`no matching frame in ${timeoutMs} ms; got ${frames.map((x) => x.slice(0, 120)).join(' | ')}`)), timeoutMs);
      waiters.push({ match, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  const send = (frame: unknown) => ws.send(JSON.stringify(frame));
  const res = (id: string) => next((f) => f.type === 'res' && f.id === id);
  return { ws, frames, next, send, res, closed };
}

/** A connect as a browser would send it: its own client fields, no token, no device proof. */
const browserConnect = (id = 'c1', extra: Record<string, unknown> = {}) => ({
  type: 'req',
  id,
  method: 'connect',
  params: {
    minProtocol: 4,
    maxProtocol: 4,
    client: { id: 'gateway-client', version: '0.3.1', platform: 'linux', mode: 'backend' },
    role: 'operator',
    scopes: ['operator.read', 'operator.write'],
    ...extra,
  },
});

void test('Process model: the proxy completes the handshake with svc\'s token and device proof; agents.list and a chat reply come back; the browser never sees the token', async () => {
  const p = await openProxy();
  await p.next((f) => f.type === 'event' && f.event === 'connect.challenge');
  p.send(browserConnect());
  const hello = await p.res('c1');
  assert.equal(hello.ok, true, JSON.stringify(hello).slice(0, 400));
  const payload = hello.payload as { type?: string; auth?: Record<string, unknown> };
  assert.equal(payload.type, 'hello-ok');
  assert.equal(payload.auth?.deviceToken, undefined, 'a device token issued to svc is not passed to the browser');

  p.send({ type: 'req', id: 'a1', method: 'agents.list', params: {} });
  const agents = await p.res('a1');
  assert.equal(agents.ok, true);
  assert.ok(((agents.payload as { agents: Array<{ id: string }> }).agents).some((a) => a.id === 'main'));

  p.send({ type: 'req', id: 's1', method: 'chat.send', params: { sessionKey: 'agent:main:proxy', message: 'hello through svc', idempotencyKey: randomBytes(8).toString('hex') } });
  const sent = await p.res('s1');
  assert.equal(sent.ok, true, JSON.stringify(sent));
  const runId = (sent.payload as { runId: string }).runId;
  const final = await p.next((f) => f.event === 'chat' && (f.payload as { runId?: string; state?: string }).runId === runId && (f.payload as { state?: string }).state === 'final', 90_000);
  assert.match(JSON.stringify(final.payload), /ECHO: hello through svc/);

  p.ws.close(1000, 'done');
  await p.closed;
  for (const f of p.frames) assert.ok(!f.includes(token), 'the gateway token never reaches the browser');
});

void test('Gateway client: a chat turn subscribes before it sends and follows its run to the final text', async () => {
  if (!direct) throw new Error('no direct gateway session');
  const texts: string[] = [];
  const turn = await sendChat(direct, { sessionKey: 'agent:main:client-test', message: 'one two three', onText: (t) => texts.push(t), timeoutMs: 90_000 });
  assert.equal(turn.state, 'final');
  assert.equal(turn.text, 'ECHO: one two three');
  assert.ok(texts.length > 0 && texts.every((t) => 'ECHO: one two three'.startsWith(t.trimEnd()) || t === 'ECHO: one two three'), texts.join(' | '));
  assert.ok(model.prompts.includes('one two three'), 'the fake provider got the text');
});

void test('Process model: frames sent before the connect are held and go upstream after it, in order', async () => {
  const p = await openProxy();
  // Sent at once, before the challenge has even arrived: without holding,
  // agents.list would reach the gateway first and be refused ("first request must be connect").
  p.send({ type: 'req', id: 'early', method: 'agents.list', params: {} });
  p.send(browserConnect('c2'));
  const hello = await p.res('c2');
  assert.equal(hello.ok, true);
  const early = await p.res('early');
  assert.equal(early.ok, true, JSON.stringify(early).slice(0, 300));
  p.ws.close();
  await p.closed;
});

void test('Process model: when the gateway closes the connection, the browser is closed with the gateway\'s code and reason', async () => {
  const p = await openProxy();
  // An unknown connect field is passed through as the browser sent it; the
  // gateway refuses the handshake and closes with 1008.
  p.send(browserConnect('c3', { bogusField: 1 }));
  const refused = await p.res('c3');
  assert.equal(refused.ok, false);
  const [code, reason] = await p.closed;
  assert.equal(code, 1008);
  assert.match(reason, /bogusField/);
});

void test('Settings and health: gatewayReachable is ok once the gateway link completed the handshake', async () => {
  const r = (await (await fetch(`${svc.base}/api/health/recheck`, { method: 'POST' })).json()) as {
    checks: Array<{ id: string; ok: boolean; detail?: Record<string, unknown> }>;
  };
  const check = r.checks.find((c) => c.id === 'gatewayReachable');
  assert.equal(check?.ok, true, JSON.stringify(check));
  assert.equal(check?.detail?.connection, 'connected');
  assert.equal(check?.detail?.serverVersion, '2026.9.6');
  assert.ok(!JSON.stringify(r).includes(token));
});

const call = (method: string, params?: unknown) => {
  if (!direct) throw new Error('no direct gateway session (did the start test fail?)');
  return direct.request(method, params ?? {});
};
const scenarioContext = () => ({ svcBase: svc.base, gatewayStateDir: stateDir, call });

void test('System: PATCH gateway-config lands in openclaw.json and the running gateway picks it up (agents.entries, defaults)', async () => {
  await gatewayConfigScenario(scenarioContext());
});

void test('Exec settings and standing exec grants against the real gateway: read, revoke, already-absent, blocked-wildcard, execAsk written to the policy', async () => {
  await execScenario(scenarioContext());
});

void test('Smaller resources → Chat history: reset-context resets the real gateway session (its history holds no earlier turn) and reports it as reset', async () => {
  if (!direct) throw new Error('no direct gateway session (did the start test fail?)');
  await resetContextScenario({ svcBase: svc.base, session: direct });
});

void test('Authentication 9, Security (issue 15 #8): a proxied connect with an Origin is NOT_PAIRED; approve-device approves svc\'s own request, not another device\'s newer one, which stays pending', async () => {
  const connectWithOrigin = async (): Promise<{ ok: true } | { ok: false; code: string }> => {
    const p = await openProxy({ origin: svc.base });
    p.send(browserConnect('cp'));
    const r = await p.res('cp');
    p.ws.close();
    await p.closed;
    if (r.ok === true) return { ok: true };
    return { ok: false, code: String((r.error as { code?: unknown } | undefined)?.code) };
  };
  const other = loadOrCreateDeviceIdentity(join(home, 'other-device', 'identity.json'));
  const connectOtherDevice = async (): Promise<{ ok: true } | { ok: false; code: string }> => {
    try {
      const s = await connectGateway({ url: gatewayUrl(), token, identity: other, version: 'test', origin: 'http://localhost:3000', connectTimeoutMs: 10_000 });
      await s.close();
      return { ok: true };
    } catch (err) {
      return { ok: false, code: String((err as { code?: unknown }).code) };
    }
  };
  const pending = async () => {
    const r = spawnSync(join(install.openclawBin, 'openclaw'), ['devices', 'list', '--json'], {
      env: { ...process.env, ...gatewayEnv(install, stateDir) }, encoding: 'utf8', timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const list = parseDevicesList(r.stdout);
    assert.ok(list, r.stdout);
    return list.pending;
  };
  const svcDeviceId = loadOrCreateDeviceIdentity(join(home, 'proxy-device-identity.json')).deviceId;
  await approveDeviceScenario({ svcBase: svc.base, svcDeviceId, connectWithOrigin, connectOtherDevice, pending });
});

void test('Gateway process: restart (stopping, then a new process that accepts connects), then stop (status not running, gateway.pid gone)', async () => {
  await direct?.close();
  direct = null;
  await restartThroughSvc(svc.base);
  const s = await connectGateway({ url: gatewayUrl(), token, identity: testIdentity(), version: 'test', connectTimeoutMs: 5000 });
  await s.close();
  await stopThroughSvc(svc.base, { pidFile: join(home, 'gateway.pid') });
  await assert.rejects(connectGateway({ url: gatewayUrl(), token, identity: testIdentity(), version: 'test', connectTimeoutMs: 2000 }), /not reachable|timed out|closed/);
});

void test('System: install-gateway runs a real global npm install of openclaw, streams its output, completes with the version, and status then finds the new CLI', async () => {
  const { status, frames } = await postFrames(`${svc.base}/api/system/install-gateway`, {}, 15 * 60_000);
  assert.equal(status, 200);
  assert.deepEqual(frames[0], { type: 'progress', step: 'installing', message: frames[0]?.message });
  const last = frames[frames.length - 1];
  assert.deepEqual(last, { type: 'complete', success: true, version: OPENCLAW_VERSION }, JSON.stringify(frames.slice(-5)));
  assert.ok(!frames.some((f) => f.type === 'error' && f.code !== 'EACCES'), JSON.stringify(frames.filter((f) => f.type === 'error')));
  const st = (await (await fetch(`${svc.base}/api/system/status`)).json()) as { gatewayCli: { installed: boolean; version: string | null; path: string | null } };
  assert.equal(st.gatewayCli.installed, true);
  assert.equal(st.gatewayCli.version, OPENCLAW_VERSION);
  assert.equal(st.gatewayCli.path, join(home, 'npm-global', 'bin', 'openclaw'));
});
