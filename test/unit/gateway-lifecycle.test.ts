// Spec "Gateway process" and "approve-device", against real child processes:
// a tiny node script stands in for `openclaw gateway run` (it listens on the
// port it is given), another ignores SIGTERM to prove the SIGKILL path, and
// a fake CLI answers `devices list --json` and `devices approve <id>` as the
// recipe's CLI does. Issue 15 #16: a gateway.pid naming a process that is
// not the gateway svc started is never signalled. Issue 16 #5: how a stop
// went is read from the gateway's own log lines, not from a stopwatch.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { tcpReachable } from '../../shared/health/probes.ts';
import { isAlive } from '../../shared/launcher/stop.ts';
import { approveDevice, parseDevicesList } from '../../workers/gateway-host/approve-device.ts';
import { createLifecycle, type LifecycleDeps, type OpEmitter } from '../../workers/gateway-host/lifecycle.ts';
import { satisfiesNodeRange } from '../../workers/gateway-host/node-range.ts';
import { writePidFile } from '../../workers/gateway-host/pid-file.ts';
import { cmdlineFromProc, processIdentity, startTimeFromStat } from '../../workers/gateway-host/proc-identity.ts';
import { GatewayHostWorkerData } from '../../shared/channels/gateway-host.ts';
import { freePort } from '../helpers/server.ts';
import { deadline, waitFor } from '../helpers/wait.ts';

// Stands in for `openclaw gateway run --port P --bind loopback`. FAKE_MODE:
// listen (default), ignore-term (listens, ignores SIGTERM), slow-term (on
// SIGTERM, exits only once a file named release appears beside it), held
// (listens only once that file appears), exit (exits 2 at once), silent
// (never listens). Configured through a file beside it, since the lifecycle
// passes svc's own environment through.
const FAKE_GATEWAY = `#!/usr/bin/env node
const { createServer } = require('node:net');
const { existsSync, readFileSync } = require('node:fs');
const mode = readFileSync(__dirname + '/mode', 'utf8').trim();
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
console.log('\\u001b[36m[gateway]\\u001b[39m starting on ' + port + ' args=' + process.argv.slice(2).join(' '));
console.log('state=' + process.env.OPENCLAW_STATE_DIR);
if (mode === 'exit') process.exit(2);
if (mode === 'ignore-term') process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
else if (mode === 'slow-term') process.on('SIGTERM', () => {
  console.log('stopping');
  setInterval(() => { if (existsSync(__dirname + '/release')) { console.log('bye'); process.exit(0); } }, 20);
});
else process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
const listen = () => createServer(() => {}).listen(port, '127.0.0.1', () => console.log('[gateway] ready'));
if (mode === 'held') { const held = setInterval(() => { if (existsSync(__dirname + '/release')) { clearInterval(held); listen(); } }, 20); }
else if (mode !== 'silent') setTimeout(listen, 300);
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
    // 60 s of polls: the stand-ins bind in well under a second; this only stops a hung start (TIMEOUT is tested with 3).
    pollCount: 600,
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
  // A grace longer than any run: the stop below can only end by the gateway's own exit.
  const { lc, deps, port, track, dir } = await setup(t, 'listen', { stopGraceMs: 3_600_000 });
  const rec = recorder();
  await lc.start(rec);
  const pid = pidOf(rec.frames);
  track(pid);
  assert.ok(pid, JSON.stringify(rec.frames));
  const types = rec.frames.filter((f) => f.type !== 'output').map((f) => (f.type === 'progress' ? f.step : f.type));
  assert.equal(types[0], 'starting');
  assert.equal(types.at(-1), 'complete');
  assert.ok(types.slice(1, -1).every((s) => s === 'waiting'));
  assert.match(String(rec.frames.find((f) => f.step === 'waiting')?.message), /^Waiting for gateway\.\.\. \(1\/600\)$/);
  assert.deepEqual(rec.frames.at(-1), { type: 'complete', success: true, pid, port });

  const file = JSON.parse(readFileSync(deps.pidFile, 'utf8'));
  assert.deepEqual(Object.keys(file).sort(), ['cmdline', 'pid', 'port', 'procStart', 'startedAt']);
  assert.equal(file.pid, pid);
  assert.equal(file.port, port);
  assert.deepEqual({ start: file.procStart, cmdline: file.cmdline }, processIdentity(pid), 'the identity the OS reports for the gateway');
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

  assert.deepEqual(await deadline(lc.stop(), { what: 'stop to see the gateway exit on SIGTERM' }), { ok: true, stopped: true });
  assert.match(readFileSync(deps.logFile, 'utf8'), /^bye$/m, 'a SIGTERM-friendly gateway exits by itself');
  assert.equal(isAlive(pid), false);
  assert.equal(existsSync(deps.pidFile), false, 'gateway.pid is removed');
  assert.deepEqual(await lc.stop(), { ok: false, message: 'No gateway process found' });
  assert.equal((await lc.status()).running, false);
});

void test('System: gateway stop SIGKILLs a gateway that ignores SIGTERM after the 2 s grace', async (t) => {
  assert.equal(GatewayHostWorkerData.shape.stopGraceMs.parse(undefined), 2000, "the worker's grace is the spec's 2 s");
  // A short grace for the test: the gateway ignores SIGTERM, so only the SIGKILL after it can end it.
  const { lc, track } = await setup(t, 'ignore-term', { stopGraceMs: 300 });
  const rec = recorder();
  await lc.start(rec);
  const pid = pidOf(rec.frames);
  track(pid);
  assert.ok(pid);
  assert.deepEqual(await lc.stop(), { ok: true, stopped: true });
  await waitFor(() => !isAlive(pid), { what: 'the SIGKILLed gateway to be gone' });
});

void test('System: gateway stop gives a gateway its grace: no SIGKILL while it is still shutting down after SIGTERM', async (t) => {
  // A grace longer than any run: the gateway alone decides when the stop ends.
  const { lc, deps, dir, track } = await setup(t, 'slow-term', { stopGraceMs: 3_600_000 });
  const rec = recorder();
  await lc.start(rec);
  const pid = pidOf(rec.frames);
  track(pid);
  assert.ok(pid);
  const stopping = lc.stop();
  await waitFor(() => readFileSync(deps.logFile, 'utf8').includes('stopping'), { what: 'the gateway to get SIGTERM' });
  assert.equal(isAlive(pid), true, 'not killed while it shuts down');
  writeFileSync(join(dir, 'release'), '');
  assert.deepEqual(await deadline(stopping, { what: 'stop to return once the gateway exits' }), { ok: true, stopped: true });
  assert.match(readFileSync(deps.logFile, 'utf8'), /^bye$/m, 'it exited by itself');
  assert.equal(isAlive(pid), false);
});

void test('System: gateway start joins an alive-but-unbound managed PID instead of spawning a duplicate', async (t) => {
  const { lc, deps, cli, dir, port, track } = await setup(t, 'held', { cli: () => null });
  // A launch in flight: alive, port not bound until the test releases it.
  const child = spawn(process.execPath, [cli, 'gateway', 'run', '--port', String(port)], { detached: true, stdio: 'ignore' });
  track(child.pid);
  const id = processIdentity(child.pid as number);
  assert.ok(id);
  writePidFile(deps.pidFile, { pid: child.pid as number, port, startedAt: Date.now(), procStart: id.start, cmdline: id.cmdline });
  const rec = recorder();
  const starting = lc.start(rec);
  await waitFor(() => rec.frames.some((f) => f.step === 'waiting'), { what: 'start to wait for the joined launch' });
  writeFileSync(join(dir, 'release'), '');
  await deadline(starting, { what: 'start to complete once the joined gateway listens' });
  assert.deepEqual(rec.frames[0], { type: 'progress', step: 'starting', message: `Joining gateway launch (pid ${child.pid}, port ${port})` });
  assert.deepEqual(rec.frames.at(-1), { type: 'complete', success: true, pid: child.pid, port });
  assert.ok(!rec.frames.some((f) => f.type === 'error'), 'no spawn was attempted (the CLI is missing here)');
});

void test('System: gateway status cleans a stale PID file', async (t) => {
  const { lc, deps } = await setup(t, 'listen');
  const dead = spawnSync(process.execPath, ['-e', 'process.pid'], { stdio: 'ignore' }).pid as number;
  writePidFile(deps.pidFile, { pid: dead, port: 1, startedAt: Date.now(), procStart: '1', cmdline: 'node openclaw gateway run' });
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

// `openclaw devices list --json` as docs/gateway-facts.md ("Pairing and
// devices list") shows it.
const OWN = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const OWN_REQ = '969cc9b6-63c3-4006-a939-41a79fafd88a';
const OTHER_REQ = '11111111-2222-4333-8444-555555555555';
const pending = (requestId: string, deviceId: string, ts: number) => ({
  requestId, deviceId, publicKey: 'pk', platform: 'linux', clientId: 'gateway-client', clientMode: 'backend',
  role: 'operator', roles: ['operator'], scopes: ['operator.read'], silent: false, isRepair: false, ts,
});

/** A fake CLI: `devices list --json` prints `list`; `devices approve <id>` approves; every call is logged. */
function fakeDevicesCli(dir: string, list: unknown, listExit = 0): { cli: string; calls: () => string[] } {
  const cli = join(dir, 'openclaw');
  const log = join(dir, 'calls.log');
  writeFileSync(cli, `#!/usr/bin/env node
const a = process.argv.slice(2);
require('node:fs').appendFileSync(${JSON.stringify(log)}, a.join(' ') + '\\n');
if (a[0] === 'devices' && a[1] === 'list') { ${listExit === 0 ? `console.log('warning: a line before the JSON'); console.log(${JSON.stringify(JSON.stringify(list, null, 2))});` : "console.error('gateway closed (1006)');"} process.exit(${listExit}); }
if (a[0] === 'devices' && a[1] === 'approve' && a[2] === '--latest') { console.log('Selected pending device request ' + ${JSON.stringify(OTHER_REQ)}); process.exit(1); }
if (a[0] === 'devices' && a[1] === 'approve') { console.log('Approved ' + a[2]); process.exit(0); }
process.exit(9);
`);
  chmodSync(cli, 0o755);
  return { cli, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

void test('System: approve-device reads the JSON listing (anything printed before it is skipped)', () => {
  const list = { pending: [pending(OWN_REQ, OWN, 1)], paired: [] };
  assert.deepEqual(parseDevicesList(`note\n${JSON.stringify(list)}\n`)?.pending.map((p) => p.requestId), [OWN_REQ]);
  assert.equal(parseDevicesList('No pending device pairing requests to approve'), null);
  assert.equal(parseDevicesList('{"pending": "none"}'), null);
});

void test("Security (issue 15 #8): approve-device approves svc's own pending request by its id and never the newest one from another device", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-approve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The other device asked last: `--latest` would have picked it.
  const { cli, calls } = fakeDevicesCli(dir, { pending: [pending(OWN_REQ, OWN, 1000), pending(OTHER_REQ, OTHER, 2000)], paired: [] });
  assert.deepEqual(await approveDevice({ cli, deviceId: () => OWN, env: {} }), { outcome: 'approved', requestId: OWN_REQ, output: `Approved ${OWN_REQ}` });
  assert.deepEqual(calls(), ['devices list --json', `devices approve ${OWN_REQ}`], 'the other request was never touched');
});

void test("Security (issue 15 #8): with only other devices' requests pending, approve-device approves nothing and says it left them alone", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-approve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { cli, calls } = fakeDevicesCli(dir, { pending: [pending(OTHER_REQ, OTHER, 2000)], paired: [] });
  const r = await approveDevice({ cli, deviceId: () => OWN, env: {} });
  assert.equal(r.outcome, 'none-pending');
  assert.match(r.outcome === 'none-pending' ? r.details : '', /^No pending pairing request from svc's device aaaaaaaaaaaa…; another device's request was left alone/);
  assert.deepEqual(calls(), ['devices list --json']);
});

void test('System: approve-device with nothing pending, a failing listing, no CLI, a CLI that cannot start', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-approve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const empty = fakeDevicesCli(dir, { pending: [], paired: [] });
  assert.deepEqual(await approveDevice({ cli: empty.cli, deviceId: () => OWN, env: {} }), {
    outcome: 'none-pending', details: "No pending device pairing requests (svc's device aaaaaaaaaaaa… has none)",
  });
  const failing = fakeDevicesCli(dir, null, 1);
  assert.deepEqual(await approveDevice({ cli: failing.cli, deviceId: () => OWN, env: {} }), { outcome: 'spawn-failed', message: 'gateway closed (1006)' });
  assert.deepEqual(await approveDevice({ cli: null, deviceId: () => OWN, env: {} }), { outcome: 'not-installed' });
  const r = await approveDevice({ cli: join(dir, 'missing'), deviceId: () => OWN, env: {} });
  assert.equal(r.outcome, 'spawn-failed');
});

void test('Security (issue 15 #16): the process identity is read from /proc as the OS writes it', () => {
  // A command name with spaces and parentheses: fields are counted after the last ")".
  const stat = '4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615';
  assert.equal(startTimeFromStat(stat), '987654');
  assert.equal(startTimeFromStat('garbage'), null);
  assert.equal(cmdlineFromProc('node\0/x/openclaw\0gateway\0run\0'), 'node /x/openclaw gateway run');
  assert.equal(cmdlineFromProc('openclaw-gateway\0\0\0\0'), 'openclaw-gateway', 'a process that renamed itself');
  const me = processIdentity(process.pid);
  assert.ok(me && me.start !== '' && me.cmdline.includes(process.execPath.split('/').pop() as string), JSON.stringify(me));
  assert.equal(processIdentity(2 ** 22 + 12345), null, 'no such process');
});

void test('Security (issue 15 #16): a gateway.pid naming a live process svc did not start (a reused pid) is never signalled, and the stale file is dropped', async (t) => {
  const { lc, deps, port, cli } = await setup(t, 'listen');
  // The gateway svc recorded is gone; the OS gave its pid to this process.
  const bystander = spawn('sleep', ['300'], { stdio: 'ignore' });
  t.after(() => bystander.kill('SIGKILL'));
  const pid = bystander.pid as number;
  const real = processIdentity(pid);
  assert.ok(real);
  const gatewayCmd = `node ${cli} gateway run --port ${port} --bind loopback`;
  mkdirSync(dirname(deps.pidFile), { recursive: true });
  const records: Array<[string, Record<string, unknown>]> = [
    ['an older svc\'s record (no identity)', { pid, port, startedAt: Date.now() }],
    ['another start time and command line', { pid, port, startedAt: Date.now(), procStart: '12345', cmdline: gatewayCmd }],
    ['the same start time, another command line', { pid, port, startedAt: Date.now(), procStart: real.start, cmdline: gatewayCmd }],
    ['another start time, the same command line', { pid, port, startedAt: Date.now(), procStart: `1${real.start}`, cmdline: real.cmdline }],
  ];
  for (const [what, rec] of records) {
    writeFileSync(deps.pidFile, JSON.stringify(rec));
    assert.deepEqual(await lc.status(), { running: false, port, pid: null, managedByService: false, uptimeMs: null }, what);
    assert.equal(existsSync(deps.pidFile), false, `${what}: the stale file is dropped`);
    writeFileSync(deps.pidFile, JSON.stringify(rec));
    assert.deepEqual(await lc.stop(), { ok: false, message: 'No gateway process found' }, what);
    assert.equal(existsSync(deps.pidFile), false, what);
    assert.equal(isAlive(pid), true, `${what}: the process under the reused pid was not signalled`);
  }
  // The same process recorded as it is: trusted (this is what svc writes for its gateway).
  writePidFile(deps.pidFile, { pid, port, startedAt: Date.now(), procStart: real.start, cmdline: real.cmdline });
  assert.equal((await lc.status()).pid, pid);
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

void test('System (issue 18): a gateway whose identity could not be read at spawn (mid-exec) is still recorded once ready: status has its pid', async (t) => {
  // The first read right after the spawn falls on the exec (the OS shows no command line then): null, as the real read did.
  let reads = 0;
  const { lc, deps, track } = await setup(t, 'listen', { identify: (pid) => (++reads === 1 ? null : processIdentity(pid)) });
  const rec = recorder();
  await lc.start(rec);
  const pid = pidOf(rec.frames);
  track(pid);
  assert.ok(pid, JSON.stringify(rec.frames));
  const status = await lc.status();
  assert.equal(status.pid, pid, 'the status names the gateway svc started');
  assert.equal(status.managedByService, true);
  const file = JSON.parse(readFileSync(deps.pidFile, 'utf8')) as { pid: number; procStart: string; cmdline: string };
  assert.equal(file.pid, pid);
  assert.deepEqual({ start: file.procStart, cmdline: file.cmdline }, processIdentity(pid));
  const stopped = await lc.stop();
  assert.deepEqual(stopped, { ok: true, stopped: true }, 'and Stop finds it');
});
