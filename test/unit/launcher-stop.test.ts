// `svc stop`, `svc restart` and the restart offer (spec "Command-line
// launcher") against small stand-in dashboards run as child processes, so
// signals, port watching and the detached start are real but fast.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../shared/config.ts';
import {
  createContext,
  pidFromPort,
  runDefault,
  runRestart,
  isAlive,
  stopDashboard,
  tcpCheck,
  type Io,
} from '../../shared/launcher/index.ts';
import { freePort } from '../helpers/server.ts';
import { startChild } from '../helpers/spawn.ts';
import { waitFor } from '../helpers/wait.ts';

// Answers like svc (optionally gated), records its port next to itself like
// svc's api-port.txt, and removes it on SIGTERM unless told to ignore it.
const FAKE_DASHBOARD = `
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const portFile = path.join(__dirname, 'api-port.txt');
const token = process.env.FAKE_GATE_TOKEN;
const version = process.env.FAKE_VERSION || '0.3.1';
const reply = (res, status, body) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
const srv = http.createServer((req, res) => {
  if (token && req.headers.authorization !== 'Bearer ' + token) return reply(res, 401, { error: 'access token required', service: 'svc' });
  if (req.url === '/api/settings') return reply(res, 200, { gatewayUrl: 'ws://localhost:18789', hasToken: false });
  if (req.url.startsWith('/api/system/self-version')) return reply(res, 200, { current: version, latest: null, updateAvailable: false });
  reply(res, 404, { error: 'not found' });
});
const port = Number(process.env.SVC_API_PORT || process.argv[2] || 0);
const listen = (attempt) => {
  srv.once('error', (err) => {
    if (err.code === 'EADDRINUSE' && process.env.SVC_AWAIT_PORT === '1' && attempt < 600) setTimeout(() => listen(attempt + 1), 100);
    else { console.error(err.message); process.exit(1); }
  });
  srv.listen(port, '127.0.0.1', () => {
    fs.writeFileSync(portFile, srv.address().port + '\\n');
    console.log('ready ' + srv.address().port);
  });
};
process.on('SIGTERM', () => {
  if (process.env.FAKE_IGNORE_TERM) return;
  fs.rmSync(portFile, { force: true });
  process.exit(0);
});
listen(0);
`;

interface Fixture {
  home: string;
  script: string;
  lines: string[];
  io: Io;
}

function fixture(t: TestContext): Fixture {
  const home = mkdtempSync(join(tmpdir(), 'svc-stop-'));
  const script = join(home, 'fake-dashboard.cjs');
  writeFileSync(script, FAKE_DASHBOARD);
  const lines: string[] = [];
  t.after(() => {
    // Whatever still holds the recorded port was started by this test.
    const recorded = existsSync(join(home, 'api-port.txt')) ? Number(readFileSync(join(home, 'api-port.txt'), 'utf8')) : null;
    const owner = recorded ? pidFromPort(recorded) : null;
    if (owner?.kind === 'found') for (const pid of owner.pids) if (pid !== process.pid) process.kill(pid, 'SIGKILL');
    rmSync(home, { recursive: true, force: true });
  });
  return { home, script, lines, io: { out: (l) => lines.push(l), err: (l) => lines.push(l) } };
}

/** Starts the stand-in directly and returns its port and pid. */
async function startFake(t: TestContext, f: Fixture, env: Record<string, string> = {}): Promise<{ port: number; pid: number }> {
  const port = await freePort();
  const child = startChild(process.execPath, [f.script, String(port)], { env: { ...process.env, ...env }, cleanup: t });
  await child.line(/^ready /, { what: 'the stand-in dashboard to listen' });
  return { port, pid: child.pid };
}

const alive = isAlive;

// packageRoot is the temporary home, so a build of the real server in the
// checkout (dist/) can never be what these tests start.
const ctxFor = (f: Fixture, env: Record<string, string> = {}) =>
  createContext({ ...loadConfig({ SVC_HOME: f.home, SVC_SERVER_PATH: f.script, CI: 'true', ...env }), packageRoot: f.home }, f.io);

const linux = { skip: process.platform !== 'linux' && 'PID lookup via /proc' };

void test('Command-line launcher: stop sends SIGTERM, waits for the port and removes api-port.txt', linux, async (t) => {
  const f = fixture(t);
  const { port } = await startFake(t, f);
  writeFileSync(join(f.home, 'api-port.txt'), `${port}\n`);
  const result = await stopDashboard(ctxFor(f));
  assert.deepEqual(result, { ok: true, port });
  assert.equal(await tcpCheck(port), false);
  assert.equal(existsSync(join(f.home, 'api-port.txt')), false);
});

void test('Command-line launcher: stop force-kills a server still holding the port after the grace period', linux, async (t) => {
  const f = fixture(t);
  const { port, pid } = await startFake(t, f, { FAKE_IGNORE_TERM: '1' });
  const result = await stopDashboard(ctxFor(f, { SVC_API_PORT: String(port) }), 500);
  assert.deepEqual(result, { ok: true, port });
  assert.ok(f.lines.some((l) => l.includes('SIGKILL')), f.lines.join('\n'));
  await waitFor(() => !alive(pid), { what: 'the SIGKILLed stand-in to be gone' });
  assert.equal(existsSync(join(f.home, 'api-port.txt')), false, 'the command cleans the port file a kill left behind');
});

void test('Command-line launcher: stop refuses a gated dashboard and prints a manual command', linux, async (t) => {
  const f = fixture(t);
  const { port, pid } = await startFake(t, f, { FAKE_GATE_TOKEN: 'abc123' });
  const result = await stopDashboard(ctxFor(f, { SVC_API_PORT: String(port) }));
  assert.deepEqual(result, { ok: false });
  assert.ok(f.lines.some((l) => l.includes(`kill ${pid}`)), f.lines.join('\n'));
  assert.ok(alive(pid));
  assert.equal(await tcpCheck(port), true);
  // With the token the launcher recognises (bearer, on the port in api-port.txt) and stops its own dashboard.
  assert.equal(readFileSync(join(f.home, 'api-port.txt'), 'utf8').trim(), String(port));
  assert.deepEqual(await stopDashboard(ctxFor(f, { SVC_API_PORT: String(port), STUDIO_ACCESS_TOKEN: 'abc123' })), { ok: true, port });
});

void test('Command-line launcher: stop with nothing running says so and removes a stale port file', async (t) => {
  const f = fixture(t);
  const port = await freePort();
  writeFileSync(join(f.home, 'api-port.txt'), `${port}\n`);
  const result = await stopDashboard(ctxFor(f, { SVC_API_PORT: String(port) }));
  assert.deepEqual(result, { ok: true, port: null });
  assert.ok(f.lines.some((l) => /No svc dashboard is running/.test(l)));
  assert.equal(existsSync(join(f.home, 'api-port.txt')), false);
});

void test('Command-line launcher: restart pins the successor to the old port', linux, async (t) => {
  const f = fixture(t);
  const { port, pid } = await startFake(t, f);
  // No SVC_API_PORT for the launcher: the port comes from api-port.txt.
  assert.equal(await runRestart(ctxFor(f), { open: true }), 0, f.lines.join('\n'));
  assert.ok(f.lines.some((l) => l.includes(`development server ${f.script}`)), 'SVC_SERVER_PATH was started');
  assert.equal(alive(pid), false);
  const owner = pidFromPort(port);
  assert.equal(owner.kind, 'found');
  assert.ok(owner.kind === 'found' && !owner.pids.includes(pid), 'a new process holds the old port');
  assert.equal(readFileSync(join(f.home, 'api-port.txt'), 'utf8').trim(), String(port));
  assert.ok(f.lines.some((l) => l === `svc dashboard: http://localhost:${port}`));
});

void test('Command-line launcher: an older running dashboard is restarted with -y, kept without a terminal', linux, async (t) => {
  const f = fixture(t);
  const { port, pid } = await startFake(t, f, { FAKE_VERSION: '0.1.0' });
  const ctx = ctxFor(f, { SVC_API_PORT: String(port), SVC_VERSION: '0.3.1' });
  const base = { open: true, versionCheck: true, yes: false };

  // No terminal (CI): notice only, attach.
  assert.equal(await runDefault(ctx, { ...base, interactive: false }), 0);
  assert.ok(f.lines.some((l) => l.includes('version 0.1.0') && l.includes('0.3.1')), f.lines.join('\n'));
  assert.ok(alive(pid));
  // A terminal whose user says no: attach.
  assert.equal(await runDefault(ctx, { ...base, interactive: true, ask: async () => false }), 0);
  assert.ok(alive(pid));
  // --no-version-check: not even asked.
  f.lines.length = 0;
  assert.equal(await runDefault(ctx, { ...base, versionCheck: false, interactive: true, ask: async () => assert.fail('asked') }), 0);
  assert.ok(!f.lines.some((l) => l.includes('version 0.1.0')));

  // -y: restarted on the same port.
  assert.equal(await runDefault(ctx, { ...base, yes: true, interactive: false }), 0, f.lines.join('\n'));
  await waitFor(() => !alive(pid), { what: 'the old dashboard to be gone' });
  const owner = pidFromPort(port);
  assert.ok(owner.kind === 'found' && !owner.pids.includes(pid));
});

void test('Command-line launcher: the default action reports a gated dashboard and starts nothing', async (t) => {
  const f = fixture(t);
  const { port, pid } = await startFake(t, f, { FAKE_GATE_TOKEN: 'abc123' });
  assert.equal(await runDefault(ctxFor(f, { SVC_API_PORT: String(port) }), { open: true, versionCheck: true, yes: false, interactive: false }), 0);
  assert.ok(f.lines.some((l) => l.includes(`port ${port}`) && l.includes('access gate on')), f.lines.join('\n'));
  assert.ok(!f.lines.some((l) => l.includes('abc123')), 'the token is never printed');
  assert.ok(!f.lines.some((l) => l.startsWith('Starting')));
  assert.ok(alive(pid));
});
