// Spec "System (host and gateway)": status, the gateway action route's
// validation, install-gateway and self-update streams (a small local package
// installed into a temporary npm prefix, so nothing global is touched), and
// self-version against a loopback fake registry. Issue 15 #17: one global
// install at a time; #19: no default update package.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { UPDATE_PACKAGE_UNSET } from '../../shared/channels/gateway-host.ts';
import { isAlive } from '../../shared/launcher/stop.ts';
import { buildTestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

/** A packed package (`package/` inside a .tgz) with an `openclaw` bin that prints its version. */
function fakePackage(dir: string, name: string, opts: { preinstall?: string } = {}): string {
  const pkg = join(dir, name, 'package');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name, version: '2026.5.1', bin: { openclaw: 'cli.js' }, scripts: opts.preinstall ? { preinstall: opts.preinstall } : {} }),
  );
  writeFileSync(join(pkg, 'cli.js'), '#!/usr/bin/env node\nconsole.log("2026.5.1");\n');
  const tgz = join(dir, `${name}.tgz`);
  const r = spawnSync('tar', ['czf', tgz, '-C', join(dir, name), 'package']);
  assert.equal(r.status, 0, String(r.stderr));
  return tgz;
}

/** npm writes only under a temporary prefix and cache for this test (the worker copies process.env at start). */
function isolateNpm(t: TestContext): { dir: string; prefix: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-npm-'));
  const prefix = join(dir, 'prefix');
  const vars: Record<string, string> = {
    npm_config_prefix: prefix,
    npm_config_cache: join(dir, 'cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  t.after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, prefix };
}

/**
 * A stand-in `npm` first on PATH (the worker copies process.env when it
 * starts): a shell script that appends its pid to `<dir>/npm-runs`, then
 * runs `body`.
 */
function standInNpm(t: TestContext, dir: string, body: string): { runs: () => number } {
  const bin = join(dir, 'stand-in-bin');
  mkdirSync(bin, { recursive: true });
  const runs = join(dir, 'npm-runs');
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$$" >> "${runs}"\n${body}\n`, { mode: 0o755 });
  const saved = process.env.PATH;
  process.env.PATH = `${bin}${delimiter}${saved ?? ''}`;
  t.after(() => {
    process.env.PATH = saved;
  });
  return { runs: () => (existsSync(runs) ? readFileSync(runs, 'utf8').trim().split('\n').length : 0) };
}

interface Frame { type: string; [k: string]: unknown }

/**
 * POSTs to a streaming route over a real socket (the app listens on an
 * ephemeral loopback port) and reads the stream to its end, as a client
 * would: the frames arrive while the install runs.
 */
async function postStream(app: FastifyInstance, url: string, json?: unknown): Promise<{ status: number; headers: Headers; body: string }> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    signal: AbortSignal.timeout(120_000),
    ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }),
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
}
function framesOf(body: string): Frame[] {
  return body
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => JSON.parse(b.slice(6)) as Frame);
}

void test("System: POST /api/system/gateway validation: 'JSON body required' and the action message", async (t) => {
  const { app } = await buildTestApp(t);
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'JSON body required'],
    ['[1,2]', 'JSON body required'],
    ['"start"', 'JSON body required'],
    ['{bad json', 'JSON body required'],
    ['{}', "action must be 'start', 'stop', 'restart', or 'status'"],
    ['{"action":"launch"}', "action must be 'start', 'stop', 'restart', or 'status'"],
    ['{"action":1}', "action must be 'start', 'stop', 'restart', or 'status'"],
  ];
  for (const [payload, error] of cases) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/system/gateway',
      ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload }),
    });
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error }, String(payload));
  }
});

void test('System: GET /api/system/status shape; action status and stop with no gateway', async (t) => {
  const { dir } = isolateNpm(t);
  const cli = join(dir, 'openclaw');
  writeFileSync(cli, '#!/usr/bin/env node\nconsole.log("OpenClaw 2026.9.6 (abc123)");\n', { mode: 0o755 });
  const state = join(dir, 'gw-state');
  mkdirSync(state);
  const port = await freePort();
  writeFileSync(join(state, 'openclaw.json'), JSON.stringify({ gateway: { port, bind: 'loopback' } }));
  const { app } = await buildTestApp(t, { startWorkers: true, env: { SVC_GATEWAY_CLI: cli, OPENCLAW_STATE_DIR: state } });

  const res = await app.inject('/api/system/status');
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['gateway', 'gatewayCli', 'node']);
  assert.match(body.node.version, /^v\d+\.\d+\.\d+/);
  assert.equal(body.node.major, Number(/^v(\d+)/.exec(body.node.version)?.[1]));
  assert.equal(body.node.sufficient, body.node.major >= 22);
  assert.equal(typeof body.node.path, 'string');
  assert.equal(typeof body.node.gatewayRequirement, 'string');
  assert.ok(body.node.meetsGatewayRequirement === null || typeof body.node.meetsGatewayRequirement === 'boolean');
  assert.deepEqual(body.gatewayCli, { installed: true, version: '2026.9.6', path: cli, stateDir: state, configExists: true, envExists: false });
  assert.deepEqual(body.gateway, { running: false, port, pid: null, managedByService: false, uptimeMs: null });

  const status = await app.inject({ method: 'POST', url: '/api/system/gateway', payload: { action: 'status' } });
  assert.deepEqual(status.json(), { running: false, pid: null, port, uptimeMs: null });
  const stop = await app.inject({ method: 'POST', url: '/api/system/gateway', payload: { action: 'stop' } });
  assert.deepEqual(stop.json(), { ok: false, message: 'No gateway process found' });
});

void test('System: gateway start without the CLI streams NOT_INSTALLED; approve-device says gateway CLI not installed', async (t) => {
  const { dir } = isolateNpm(t);
  const { app } = await buildTestApp(t, { startWorkers: true, env: { SVC_GATEWAY_CLI: join(dir, 'no-such-cli'), OPENCLAW_STATE_DIR: join(dir, 's') } });
  const res = await postStream(app, '/api/system/gateway', { action: 'start' });
  assert.equal(res.status, 200);
  assert.match(String(res.headers.get('content-type')), /^text\/event-stream/);
  const frames = framesOf(res.body);
  assert.equal(frames.at(-1)?.type, 'error', res.body);
  assert.equal(frames.at(-1)?.code, 'NOT_INSTALLED');

  const approve = await app.inject({ method: 'POST', url: '/api/system/approve-device' });
  assert.equal(approve.statusCode, 400);
  assert.deepEqual(approve.json(), { error: 'gateway CLI not installed' });
});

void test('System: install-gateway streams progress, output and complete with the installed version', async (t) => {
  const { dir, prefix } = isolateNpm(t);
  const tgz = fakePackage(dir, 'fake-openclaw');
  const cli = join(prefix, 'bin', 'openclaw');
  const { app } = await buildTestApp(t, { startWorkers: true, env: { SVC_GATEWAY_PACKAGE: tgz, SVC_GATEWAY_CLI: cli } });
  const before = (await app.inject('/api/system/status')).json();
  assert.equal(before.gatewayCli.installed, false);

  const res = await postStream(app, '/api/system/install-gateway');
  assert.equal(res.status, 200);
  assert.match(String(res.headers.get('content-type')), /^text\/event-stream/);
  assert.match(String(res.headers.get('cache-control')), /no-cache/);
  assert.equal(res.headers.get('connection'), 'keep-alive');
  const frames = framesOf(res.body);
  assert.deepEqual(frames[0], { type: 'progress', step: 'installing', message: `Installing ${tgz}...` });
  assert.ok(frames.some((f) => f.type === 'output' && typeof f.line === 'string' && f.line.trim() !== ''), res.body);
  assert.deepEqual(frames.at(-1), { type: 'complete', success: true, version: '2026.5.1' });
  assert.ok(!frames.some((f) => f.type === 'error'), res.body);

  const after = (await app.inject('/api/system/status')).json();
  assert.equal(after.gatewayCli.installed, true);
  assert.equal(after.gatewayCli.version, '2026.5.1', 'the version cache was refreshed');
});

void test('System: install-gateway failure gives EXIT_<code>; a permission-denied line gives an informational EACCES first', async (t) => {
  const { dir } = isolateNpm(t);
  const plain = fakePackage(dir, 'fails', { preinstall: 'node -e "console.error(\'broken build\'); process.exit(3)"' });
  const denied = fakePackage(dir, 'denied', {
    preinstall: 'node -e "console.error(\'Error: EACCES: permission denied, mkdir /usr/lib/node_modules/x\'); process.exit(3)"',
  });
  const one = await buildTestApp(t, { startWorkers: true, env: { SVC_GATEWAY_PACKAGE: plain } });
  let frames = framesOf((await postStream(one.app, '/api/system/install-gateway')).body);
  assert.deepEqual(frames.filter((f) => f.type === 'error'), [{ type: 'error', code: 'EXIT_3', message: 'npm exited with code 3' }]);
  assert.ok(!frames.some((f) => f.type === 'complete'));

  const two = await buildTestApp(t, { startWorkers: true, env: { SVC_GATEWAY_PACKAGE: denied } });
  frames = framesOf((await postStream(two.app, '/api/system/install-gateway')).body);
  const errors = frames.filter((f) => f.type === 'error').map((f) => f.code);
  assert.deepEqual(errors, ['EACCES', 'EXIT_3'], 'EACCES is informational: the stream went on to the exit code');
  assert.equal(frames.at(-1)?.code, 'EXIT_3');
});

void test('System: self-update streams the global install like install-gateway (failure: EXIT_<code>, no restart)', async (t) => {
  const { dir } = isolateNpm(t);
  const failing = fakePackage(dir, 'svc-next', { preinstall: 'node -e "process.exit(4)"' });
  const { app } = await buildTestApp(t, { startWorkers: true, env: { SVC_UPDATE_PACKAGE: failing, SVC_UPDATE_REGISTRY: 'off' } });
  const res = await postStream(app, '/api/system/self-update');
  assert.equal(res.status, 200);
  const frames = framesOf(res.body);
  assert.deepEqual(frames[0], { type: 'progress', step: 'installing', message: `Installing ${failing}...` });
  assert.deepEqual(frames.at(-1), { type: 'error', code: 'EXIT_4', message: 'npm exited with code 4' });
});

void test('System: self-update installs the new release, completes, then restarts svc through the launcher it installed (svc restart --no-open, detached)', async (t) => {
  const { dir } = isolateNpm(t);
  const marker = join(dir, 'restart-argv.json');
  // The "new release": a package whose `svc` launcher records how it was called.
  const pkg = join(dir, 'svc-next', 'package');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'svc-next', version: '9.9.9', bin: { svc: 'svc.js' } }));
  writeFileSync(join(pkg, 'svc.js'), `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(${JSON.stringify(marker)}, JSON.stringify(process.argv.slice(2)));\n`);
  const tgz = join(dir, 'svc-next.tgz');
  assert.equal(spawnSync('tar', ['czf', tgz, '-C', join(dir, 'svc-next'), 'package']).status, 0);
  const { app } = await buildTestApp(t, { startWorkers: true, env: { SVC_UPDATE_PACKAGE: tgz, SVC_UPDATE_REGISTRY: 'off' } });
  const res = await postStream(app, '/api/system/self-update');
  assert.equal(res.status, 200);
  const frames = framesOf(res.body);
  assert.equal(frames[0]?.type, 'progress');
  assert.deepEqual(frames.at(-1), { type: 'complete', success: true, version: 'unknown' }, JSON.stringify(frames.slice(-3)));
  // The restart runs a second after the stream ended, detached: its launcher writes the marker.
  await waitFor(() => existsSync(marker), { what: 'the installed launcher to be run for the restart' });
  assert.deepEqual(JSON.parse(readFileSync(marker, 'utf8')), ['restart', '--no-open']);
});

async function fakeRegistry(t: TestContext, answer: (path: string) => { status: number; body: unknown }) {
  const hits: string[] = [];
  const srv = createServer((req, res) => {
    hits.push(req.url ?? '');
    const a = answer(req.url ?? '');
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(a.body));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  t.after(() => new Promise<void>((r) => srv.close(() => r())));
  const addr = srv.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, hits };
}

void test('System: self-version with local=1 makes no registry call', async (t) => {
  const reg = await fakeRegistry(t, () => ({ status: 200, body: { version: '99.0.0' } }));
  const { app, config } = await buildTestApp(t, { startWorkers: true, env: { SVC_UPDATE_REGISTRY: reg.url, SVC_UPDATE_PACKAGE: 'svc' } });
  const res = await app.inject('/api/system/self-version?local=1');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { current: config.version, latest: null, updateAvailable: false, checked: false });
  assert.deepEqual(reg.hits, []);
});

void test('System: self-version asks the registry for <pkg>/latest and compares; a failing registry degrades to latest null', async (t) => {
  const reg = await fakeRegistry(t, (path) => (path === '/@acme%2fsvc/latest' ? { status: 200, body: { name: '@acme/svc', version: '99.1.0' } } : { status: 404, body: {} }));
  const { app, config } = await buildTestApp(t, { startWorkers: true, env: { SVC_UPDATE_REGISTRY: reg.url, SVC_UPDATE_PACKAGE: '@acme/svc' } });
  const res = await app.inject('/api/system/self-version');
  assert.deepEqual(res.json(), { current: config.version, latest: '99.1.0', updateAvailable: true, checked: true });
  assert.deepEqual(reg.hits, ['/@acme%2fsvc/latest']);

  const deadPort = await freePort();
  const down = await buildTestApp(t, { startWorkers: true, env: { SVC_UPDATE_REGISTRY: `http://127.0.0.1:${deadPort}`, SVC_UPDATE_PACKAGE: 'svc' } });
  assert.deepEqual((await down.app.inject('/api/system/self-version')).json(), {
    current: down.config.version, latest: null, updateAvailable: false, checked: false,
  });
});

void test('System: GET /api/system/models falls back to the models configured in openclaw.json when the gateway is not connected', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-models-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'openclaw.json'), JSON.stringify({
    models: { providers: { fakellm: { baseUrl: 'http://127.0.0.1:1/v1', models: [{ id: 'fake-model', name: 'Fake Model', contextWindow: 128000, reasoning: false }] } } },
    agents: { defaults: { model: { primary: 'fakellm/fake-model' } } },
  }));
  const { app } = await buildTestApp(t, { env: { OPENCLAW_STATE_DIR: dir } });
  const res = await app.inject('/api/system/models');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    source: 'config',
    defaultModel: 'fakellm/fake-model',
    models: [{ ref: 'fakellm/fake-model', id: 'fake-model', name: 'Fake Model', provider: 'fakellm', contextWindow: 128000, reasoning: false, available: null }],
  });
});

void test('System: status syncs the env-file token into settings when the gateway runs (never returning it)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sync-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // Something listens on the configured port: the spec counts the gateway as running.
  const listener = createServer(() => undefined);
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
  t.after(() => new Promise<void>((r) => listener.close(() => r())));
  const addr = listener.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const token = 'tok-from-env-file-123456';
  writeFileSync(join(dir, 'openclaw.json'), JSON.stringify({ gateway: { port } }));
  writeFileSync(join(dir, '.env'), `OPENCLAW_GATEWAY_TOKEN=${token}\n`);
  const { app, home } = await buildTestApp(t, { startWorkers: true, env: { OPENCLAW_STATE_DIR: dir } });
  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayToken: 'stale-literal-token' } });

  const res = await app.inject('/api/system/status');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().gateway.running, true);
  assert.equal(res.json().gatewayCli.envExists, true);
  assert.ok(!res.body.includes(token));
  const stored = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'));
  assert.equal(stored.gateway.token, '${OPENCLAW_GATEWAY_TOKEN}', 'a reference to the env-file variable, not a copy of the secret');
});

void test('System: install-gateway kills the install child when the client disconnects', async (t) => {
  const { dir } = isolateNpm(t);
  const marker = join(dir, 'install-pid');
  // A preinstall that records its pid and then hangs: only a kill ends it.
  const slow = fakePackage(dir, 'slow', { preinstall: `node -e "require('fs').writeFileSync('${marker}', String(process.pid)); setInterval(() => {}, 1000)"` });
  const { app } = await buildTestApp(t, { startWorkers: true, env: { SVC_GATEWAY_PACKAGE: slow } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const ac = new AbortController();
  const res = await fetch(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/api/system/install-gateway`, { method: 'POST', signal: ac.signal });
  assert.equal(res.status, 200);
  await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8') !== '', { what: 'the install to reach its preinstall script', timeoutMs: 60_000 });
  const scriptPid = Number(readFileSync(marker, 'utf8'));
  t.after(() => {
    if (isAlive(scriptPid)) process.kill(scriptPid, 'SIGKILL');
  });
  ac.abort();
  await waitFor(() => !isAlive(scriptPid), { what: 'npm and its script to be stopped once the client went away' });
});

void test('Security (issue 15 #19): with SVC_UPDATE_PACKAGE unset, self-version asks no registry and says how to set it', async (t) => {
  const reg = await fakeRegistry(t, () => ({ status: 200, body: { version: '99.0.0' } }));
  const { app, config } = await buildTestApp(t, { startWorkers: true, env: { SVC_UPDATE_REGISTRY: reg.url } });
  assert.equal(config.updatePackage, null);
  for (const url of ['/api/system/self-version', '/api/system/self-version?local=1']) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { current: config.version, latest: null, updateAvailable: false, checked: false, message: UPDATE_PACKAGE_UNSET });
  }
  assert.match(UPDATE_PACKAGE_UNSET, /SVC_UPDATE_PACKAGE/);
  assert.deepEqual(reg.hits, [], 'no package name, so no registry lookup of anyone\'s package');
});

void test('Security (issue 15 #19): with SVC_UPDATE_PACKAGE unset, self-update streams one error frame saying how to set it and installs nothing', async (t) => {
  const { dir } = isolateNpm(t);
  const npm = standInNpm(t, dir, 'exit 0');
  const { app } = await buildTestApp(t, { startWorkers: true });
  const res = await postStream(app, '/api/system/self-update');
  assert.equal(res.status, 200);
  assert.match(String(res.headers.get('content-type')), /^text\/event-stream/);
  assert.deepEqual(framesOf(res.body), [{ type: 'error', code: 'NOT_CONFIGURED', message: UPDATE_PACKAGE_UNSET }]);
  assert.equal(npm.runs(), 0, 'npm never ran');
});

void test('Security (issue 15 #17): install-gateway while an install runs is refused with 409 and starts no second npm; self-update too; the next one after it runs', async (t) => {
  const { dir } = isolateNpm(t);
  const release = join(dir, 'release');
  // npm blocks until the test releases it.
  const npm = standInNpm(t, dir, `while [ ! -f "${release}" ]; do sleep 0.05; done\necho "added 1 package"`);
  const cli = join(dir, 'openclaw');
  writeFileSync(cli, '#!/bin/sh\necho "OpenClaw 2026.9.6 (test)"\n', { mode: 0o755 });
  const { app } = await buildTestApp(t, { startWorkers: true, env: { SVC_GATEWAY_CLI: cli, SVC_UPDATE_PACKAGE: '@acme/svc' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const post = (path: string) => fetch(`${base}${path}`, { method: 'POST', signal: AbortSignal.timeout(60_000) });

  const first = await post('/api/system/install-gateway');
  assert.equal(first.status, 200);
  const firstBody = first.text();
  await waitFor(() => npm.runs() > 0, { what: 'the first npm install to start', timeoutMs: 60_000 });
  assert.equal(npm.runs(), 1, 'the first install is running');

  for (const path of ['/api/system/install-gateway', '/api/system/self-update']) {
    const again = await post(path);
    assert.equal(again.status, 409, path);
    assert.deepEqual(await again.json(), { error: 'an install is already running' }, path);
  }
  assert.equal(npm.runs(), 1, 'no second npm install -g beside the first');

  writeFileSync(release, '');
  assert.deepEqual(framesOf(await firstBody).at(-1), { type: 'complete', success: true, version: '2026.9.6' });
  const next = await post('/api/system/install-gateway');
  assert.equal(next.status, 200);
  assert.deepEqual(framesOf(await next.text()).at(-1), { type: 'complete', success: true, version: '2026.9.6' });
  assert.equal(npm.runs(), 2);
});
