// Spec "Gateway process" and "approve-device", against real child processes:
// a tiny node script stands in for `openclaw gateway run` (it listens on the
// port it is given), another ignores SIGTERM to prove the SIGKILL path, and
// a fake CLI prints the recipe's exact `devices approve` texts.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tcpReachable } from '../../shared/health/probes.ts';
import { isAlive } from '../../shared/launcher/stop.ts';
import { approveDevice, parsePreview } from '../../workers/gateway-host/approve-device.ts';
import { createLifecycle, type LifecycleDeps, type OpEmitter } from '../../workers/gateway-host/lifecycle.ts';
import { satisfiesNodeRange } from '../../workers/gateway-host/node-range.ts';
import { writePidFile } from '../../workers/gateway-host/pid-file.ts';
import { freePort } from '../helpers/server.ts';

// Stands in for `openclaw gateway run --port P --bind loopback`. FAKE_MODE:
// listen (default), ignore-term (listens, ignores SIGTERM), exit (exits 2 at
// once), silent (never listens). Configured through a file beside it, since
// the lifecycle passes svc's own environment through.
const FAKE_GATEWAY = `#!/usr/bin/env node
const { createServer } = require('node:net');
const { readFileSync } = require('node:fs');
const mode = readFileSync(__dirname + '/mode', 'utf8').trim();
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
console.log('\\u001b[36m[gateway]\\u001b[39m starting on ' + port + ' args=' + process.argv.slice(2).join(' '));
console.log('state=' + process.env.OPENCLAW_STATE_DIR);
if (mode === 'exit') process.exit(2);
if (mode === 'ignore-term') process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
else process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
if (mode !== 'silent') setTimeout(() => createServer(() => {}).listen(port, '127.0.0.1', () => console.log('[gateway] ready')), 300);
setInterval(() => {}, 1000);
`;

interface Recorded { type: string; [k: string]: unknown }

function recorder(): OpEmitter & { frames: Recorded[] } {
  const frames: Recorded[] = [];
  return {
    frames,
    progress: (step, message) => frames.push({ type: 'progress', step, message }),
    output: (line) => frames.push({ type: 'output', line }),
    error: (code, message) => frames.push({ type: 'error', code, message }),
    complete: (f) => frames.push({ type: 'complete', success: true, ...f }),
  };
}

function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Already gone: nothing left to clean up.
    }
  }
}

async function setup(t: TestContext, mode: string, over: Partial<LifecycleDeps> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-gwlc-'));
  const cli = join(dir, 'openclaw');
  writeFileSync(cli, FAKE_GATEWAY);
  chmodSync(cli, 0o755);
  writeFileSync(join(dir, 'mode'), mode);
  const port = await freePort();
  const deps: LifecycleDeps = {
    pidFile: join(dir, 'home', 'gateway.pid'),
    logFile: join(dir, 'home', 'logs', 'gateway.log'),
    stateDir: dir,
    cli: () => cli,
    configuredPort: () => port,
    reachable: async (p) => (await tcpReachable('127.0.0.1', p, 500)).ok,
    // The stand-in speaks no gateway protocol: here readiness is the port alone.
    ready: async (p) => (await tcpReachable('127.0.0.1', p, 500)).ok,
    pollCount: 40,
    pollIntervalMs: 100,
    stopGraceMs: 2000,
    ...over,
  };
  const lc = createLifecycle(deps);
  const started: number[] = [];
  t.after(() => {
    for (const pid of started) killGroup(pid);
    const rec = existsSync(deps.pidFile) ? (JSON.parse(readFileSync(deps.pidFile, 'utf8')) as { pid: number }) : null;
    if (rec) killGroup(rec.pid);
    rmSync(dir, { recursive: true, force: true });
  });
  const track = (pid: number | undefined) => pid !== undefined && started.push(pid);
  return { dir, cli, port, deps, lc, track };
}

const pidOf = (frames: Recorded[]) => frames.find((f) => f.type === 'complete')?.pid as number | undefined;

void test('System: gateway start spawns a detached gateway, writes gateway.pid, streams its lines and completes when it answers', async (t) => {
  const { lc, deps, port, track, dir } = await setup(t, 'listen');
  const rec = recorder();
  await lc.start(rec);
  const pid = pidOf(rec.frames);
  track(pid);
  assert.ok(pid, JSON.stringify(rec.frames));
  const types = rec.frames.filter((f) => f.type !== 'output').map((f) => (f.type === 'progress' ? f.step : f.type));
  assert.equal(types[0], 'starting');
  assert.equal(types.at(-1), 'complete');
  assert.ok(types.slice(1, -1).every((s) => s === 'waiting'));
  assert.match(String(rec.frames.find((f) => f.step === 'waiting')?.message), /^Waiting for gateway\.\.\. \(1\/40\)$/);
  assert.deepEqual(rec.frames.at(-1), { type: 'complete', success: true, pid, port });

  const file = JSON.parse(readFileSync(deps.pidFile, 'utf8'));
  assert.deepEqual(Object.keys(file).sort(), ['pid', 'port', 'startedAt']);
  assert.equal(file.pid, pid);
  assert.equal(file.port, port);
  const pgid = spawnSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  assert.equal(Number(pgid), pid, 'the gateway leads its own process group (detached)');

  const lines = rec.frames.filter((f) => f.type === 'output').map((f) => f.line);
  assert.ok(lines.includes(`[gateway] starting on ${port} args=gateway run --port ${port} --bind loopback`), JSON.stringify(lines));
  assert.ok(lines.includes(`state=${dir}`), 'OPENCLAW_STATE_DIR is the gateway state dir');
  const log = readFileSync(deps.logFile, 'utf8');
  assert.match(log, /\[gateway\] ready/, 'the log file gets the lines too');

  const st = await lc.status();
  assert.equal(st.running, true);
  assert.equal(st.pid, pid);
  assert.equal(st.managedByService, true);
  assert.ok(typeof st.uptimeMs === 'number' && st.uptimeMs >= 0);

  const again = recorder();
  await lc.start(again);
  assert.deepEqual(again.frames, [{ type: 'complete', success: true, port, message: 'Gateway already running' }]);

  const t0 = Date.now();
  assert.deepEqual(await lc.stop(), { ok: true, stopped: true });
  assert.ok(Date.now() - t0 < 2000, 'a SIGTERM-friendly gateway stops within the grace');
  assert.equal(isAlive(pid), false);
  assert.equal(existsSync(deps.pidFile), false, 'gateway.pid is removed');
  assert.deepEqual(await lc.stop(), { ok: false, message: 'No gateway process found' });
  assert.equal((await lc.status()).running, false);
});

void test('System: gateway stop SIGKILLs a gateway that ignores SIGTERM after the 2 s grace', async (t) => {
  const { lc, track } = await setup(t, 'ignore-term');
  const rec = recorder();
  await lc.start(rec);
  const pid = pidOf(rec.frames);
  track(pid);
  assert.ok(pid);
  const t0 = Date.now();
  assert.deepEqual(await lc.stop(), { ok: true, stopped: true });
  const took = Date.now() - t0;
  assert.ok(took >= 1900 && took < 5000, `took ${took} ms`);
  assert.equal(isAlive(pid), false);
});

void test('System: gateway start joins an alive-but-unbound managed PID instead of spawning a duplicate', async (t) => {
  const { lc, deps, cli, port, track } = await setup(t, 'listen', { cli: () => null });
  // A launch in flight: alive, port not bound yet (the stand-in binds after 300 ms).
  const child = spawn(process.execPath, [cli, 'gateway', 'run', '--port', String(port)], { detached: true, stdio: 'ignore' });
  track(child.pid);
  writePidFile(deps.pidFile, { pid: child.pid as number, port, startedAt: Date.now() });
  const rec = recorder();
  await lc.start(rec);
  assert.deepEqual(rec.frames[0], { type: 'progress', step: 'starting', message: `Joining gateway launch (pid ${child.pid}, port ${port})` });
  assert.deepEqual(rec.frames.at(-1), { type: 'complete', success: true, pid: child.pid, port });
  assert.ok(!rec.frames.some((f) => f.type === 'error'), 'no spawn was attempted (the CLI is missing here)');
});

void test('System: gateway status cleans a stale PID file', async (t) => {
  const { lc, deps } = await setup(t, 'listen');
  const dead = spawnSync(process.execPath, ['-e', 'process.pid'], { stdio: 'ignore' }).pid as number;
  writePidFile(deps.pidFile, { pid: dead, port: 1, startedAt: Date.now() });
  const st = await lc.status();
  assert.equal(st.running, false);
  assert.equal(st.pid, null);
  assert.equal(st.managedByService, false);
  assert.equal(st.uptimeMs, null);
  assert.equal(existsSync(deps.pidFile), false);
});

void test('System: gateway start errors: NOT_INSTALLED, SPAWN_ERROR on an early exit, TIMEOUT after the polls', async (t) => {
  const missing = await setup(t, 'listen', { cli: () => null });
  let rec = recorder();
  await missing.lc.start(rec);
  assert.deepEqual(rec.frames.at(-1), { type: 'error', code: 'NOT_INSTALLED', message: 'gateway CLI not installed' });

  const exits = await setup(t, 'exit');
  rec = recorder();
  await exits.lc.start(rec);
  const err = rec.frames.at(-1);
  assert.equal(err?.type, 'error');
  assert.equal(err?.code, 'SPAWN_ERROR');
  assert.match(String(err?.message), /exited with code 2/);
  assert.equal(existsSync(exits.deps.pidFile), false);

  const silent = await setup(t, 'silent', { pollCount: 3, pollIntervalMs: 100 });
  rec = recorder();
  await silent.lc.start(rec);
  assert.deepEqual(rec.frames.filter((f) => f.step === 'waiting').map((f) => f.message), [
    'Waiting for gateway... (1/3)', 'Waiting for gateway... (2/3)', 'Waiting for gateway... (3/3)',
  ]);
  assert.equal(rec.frames.at(-1)?.code, 'TIMEOUT');
  assert.deepEqual(await silent.lc.stop(), { ok: true, stopped: true }, 'the slow gateway is still managed and can be stopped');
});

// The recipe's exact texts (RECIPE §7).
const PREVIEW = `Selected pending device request 969cc9b6-63c3-4006-a939-41a79fafd88a
  Device: 31d30c2c…
  Requested: roles: operator; scopes: operator.admin, operator.approvals, operator.pairing, operator.read, operator.write
  Note:   First-time device pairing request.
Approve this exact request with: openclaw devices approve 969cc9b6-63c3-4006-a939-41a79fafd88a`;
const NONE = 'No pending device pairing requests to approve';

void test('System: approve-device parses the request id from the CLI preview text', () => {
  assert.deepEqual(parsePreview(PREVIEW), { requestId: '969cc9b6-63c3-4006-a939-41a79fafd88a' });
  assert.equal(parsePreview(NONE), null);
  assert.equal(parsePreview('openclaw devices approve --latest'), null);
});

void test('System: approve-device runs the preview, then approves that id; nothing pending and no CLI are told apart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-approve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cli = join(dir, 'openclaw');
  const script = (pending: boolean) => `#!/usr/bin/env node
const a = process.argv.slice(2);
if (a[2] === '--latest') { ${pending ? `console.log(${JSON.stringify(PREVIEW)}); process.exit(1);` : `console.error(${JSON.stringify(NONE)}); process.exit(1);`} }
if (a[0] === 'devices' && a[1] === 'approve') { console.log('Approved 31d30c2c…b234690084 (' + a[2] + ')'); process.exit(0); }
process.exit(9);
`;
  writeFileSync(cli, script(true));
  chmodSync(cli, 0o755);
  assert.deepEqual(await approveDevice({ cli, env: {} }), {
    outcome: 'approved',
    requestId: '969cc9b6-63c3-4006-a939-41a79fafd88a',
    output: 'Approved 31d30c2c…b234690084 (969cc9b6-63c3-4006-a939-41a79fafd88a)',
  });
  writeFileSync(cli, script(false));
  assert.deepEqual(await approveDevice({ cli, env: {} }), { outcome: 'none-pending', details: NONE });
  assert.deepEqual(await approveDevice({ cli: null, env: {} }), { outcome: 'not-installed' });
  const r = await approveDevice({ cli: join(dir, 'missing'), env: {} });
  assert.equal(r.outcome, 'spawn-failed');
});

void test('System: status node requirement: the gateway engines range is evaluated as written', () => {
  const range = '>=24.16.0 <25 || >=26.1.0';
  assert.equal(satisfiesNodeRange('v24.21.0', range), true);
  assert.equal(satisfiesNodeRange('v24.15.9', range), false);
  assert.equal(satisfiesNodeRange('v22.19.0', range), false);
  assert.equal(satisfiesNodeRange('v25.0.0', range), false);
  assert.equal(satisfiesNodeRange('v26.1.0', range), true);
  assert.equal(satisfiesNodeRange('v22.19.0', '>=22.19.0'), true);
  assert.equal(satisfiesNodeRange('v24.0.0', '^24'), null, 'unknown syntax: cannot tell');
});
