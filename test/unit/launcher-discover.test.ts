// Launcher port discovery and the dashboard probe (spec "Command-line
// launcher", port discovery): SVC_API_PORT only, else api-port.txt, else the
// 18790-18809 scan; a probe accepts only svc's settings view or its gate error.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../shared/config.ts';
import {
  authorizeDashboard,
  createContext,
  discoverDashboard,
  parsePortFile,
  probeDashboard,
  readPortFile,
  scanPorts,
  type Io,
  type ProbeResult,
} from '../../shared/launcher/index.ts';
import { fetchRunningVersion } from '../../shared/launcher/version.ts';
import { deadline } from '../helpers/wait.ts';

const silentIo: Io = { out: () => undefined, err: () => undefined };

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-launcher-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function httpServer(t: TestContext, handler: Handler): Promise<number> {
  const srv = createServer(handler);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  t.after(() => {
    srv.closeAllConnections();
    srv.close();
  });
  return (srv.address() as AddressInfo).port;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A stand-in for svc: the settings view, optionally behind the access gate (bearer only); it records every request's headers. */
function fakeSvc(opts: { token?: string; version?: string; seen?: IncomingMessage['headers'][] } = {}): Handler {
  return (req, res) => {
    opts.seen?.push(req.headers);
    if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) {
      return json(res, 401, { error: 'access token required', service: 'svc' });
    }
    if (req.url === '/api/settings') return json(res, 200, { gatewayUrl: 'ws://localhost:18789', hasToken: false, firstRunDismissedAt: null });
    if (req.url === '/api/system/self-version?local=1') return json(res, 200, { current: opts.version ?? '0.3.1', latest: null, updateAvailable: false });
    return json(res, 404, { error: 'not found' });
  };
}

void test('Command-line launcher: parsePortFile accepts one line holding a valid port', () => {
  assert.equal(parsePortFile('18790\n'), 18790);
  assert.equal(parsePortFile('  18795  \r\n'), 18795);
  assert.equal(parsePortFile('65535'), 65535);
  assert.equal(parsePortFile(''), null);
  assert.equal(parsePortFile('0\n'), null);
  assert.equal(parsePortFile('65536'), null);
  assert.equal(parsePortFile('18790abc'), null);
  assert.equal(parsePortFile('-1'), null);
  assert.equal(parsePortFile('18790\n18791\n'), null);
  assert.equal(parsePortFile('1e4'), null);
});

void test('Command-line launcher: readPortFile treats a missing file as no port', (t) => {
  const dir = tempDir(t);
  assert.equal(readPortFile(join(dir, 'api-port.txt')), null);
  writeFileSync(join(dir, 'api-port.txt'), '18801\n');
  assert.equal(readPortFile(join(dir, 'api-port.txt')), 18801);
  // A directory in the way is reported, not thrown.
  mkdirSync(join(dir, 'dir-port.txt'));
  const warnings: string[] = [];
  assert.equal(readPortFile(join(dir, 'dir-port.txt'), (l) => warnings.push(l)), null);
  assert.equal(warnings.length, 1);
});

void test('Command-line launcher: scan range is 18790 through 18809', () => {
  const ports = scanPorts();
  assert.equal(ports.length, 20);
  assert.equal(ports[0], 18790);
  assert.equal(ports.at(-1), 18809);
});

void test('Command-line launcher: discovery order is SVC_API_PORT only, else the port file, else the scan', async (t) => {
  const home = tempDir(t);
  const probed: number[] = [];
  const prober = (answers: Record<number, ProbeResult>) => async (port: number) => {
    probed.push(port);
    return answers[port] ?? 'closed';
  };

  // SVC_API_PORT valid: only that port, even when nothing answers there.
  const pinned = createContext(loadConfig({ SVC_HOME: home, SVC_API_PORT: '18805', CI: 'true' }), silentIo);
  assert.deepEqual(await discoverDashboard(pinned, prober({ 18790: 'svc' })), { state: 'none' });
  assert.deepEqual(probed, [18805]);

  // An invalid SVC_API_PORT is ignored; the port file is tried first.
  probed.length = 0;
  writeFileSync(join(home, 'api-port.txt'), '40123\n');
  const ctx = createContext(loadConfig({ SVC_HOME: home, SVC_API_PORT: '99999', CI: 'true' }), silentIo);
  assert.deepEqual(await discoverDashboard(ctx, prober({ 40123: 'svc', 18790: 'svc' })), { state: 'running', port: 40123 });
  assert.deepEqual(probed, [40123]);

  // A stale port file falls through to the scan; an open dashboard beats a gated one.
  probed.length = 0;
  assert.deepEqual(await discoverDashboard(ctx, prober({ 18791: 'gated', 18796: 'svc', 18792: 'other' })), {
    state: 'running',
    port: 18796,
  });
  assert.equal(probed[0], 40123);
  assert.deepEqual(probed.slice(1).sort((a, b) => a - b), scanPorts());

  probed.length = 0;
  assert.deepEqual(await discoverDashboard(ctx, prober({ 18793: 'gated' })), { state: 'gated', port: 18793 });
});

void test('Command-line launcher: probe accepts svc and rejects another HTTP listener', async (t) => {
  const svc = await httpServer(t, fakeSvc());
  assert.equal(await probeDashboard(svc), 'svc');

  // Right shape but wrong types, a plain 401, HTML, and a 500 are all "other".
  const wrongTypes = await httpServer(t, (_req, res) => json(res, 200, { gatewayUrl: 1, hasToken: 'no' }));
  const plain401 = await httpServer(t, (_req, res) => json(res, 401, { error: 'unauthorized' }));
  const otherService = await httpServer(t, (_req, res) => json(res, 401, { error: 'access token required', service: 'other' }));
  const html = await httpServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html>hello</html>');
  });
  for (const port of [wrongTypes, plain401, otherService, html]) assert.equal(await probeDashboard(port), 'other', `port ${port}`);
});

void test('Command-line launcher: probe reports a gated svc; the bearer token opens it', async (t) => {
  const port = await httpServer(t, fakeSvc({ token: 'abc123' }));
  assert.equal(await probeDashboard(port), 'gated');
  assert.equal(await authorizeDashboard(port, 'wrong'), false);
  assert.equal(await authorizeDashboard(port, 'abc123'), true);
  assert.equal(await fetchRunningVersion(port, null), null);
  assert.equal(await fetchRunningVersion(port, 'abc123'), '0.3.1');
});

const TOKEN = 'launcher-secret-77';
/** Whether any recorded request carried the token, in any header (cookie, authorization or other). */
const sawToken = (seen: IncomingMessage['headers'][]) => seen.some((h) => JSON.stringify(h).includes(TOKEN));

void test('Security (issue 15 #9): probes carry no cookie or token; a listener not on svc\'s recorded port never sees the token', async (t) => {
  const home = tempDir(t);
  const seen: IncomingMessage['headers'][] = [];
  // A stand-in that claims to be a gated svc, on the port SVC_API_PORT names; api-port.txt names another port.
  const impostor = await httpServer(t, fakeSvc({ token: 'unknowable', seen }));
  writeFileSync(join(home, 'api-port.txt'), `${impostor + 1 === 65536 ? impostor - 1 : impostor + 1}\n`);
  const pinned = createContext(loadConfig({ SVC_HOME: home, SVC_API_PORT: String(impostor), STUDIO_ACCESS_TOKEN: TOKEN, CI: 'true' }), silentIo);
  assert.deepEqual(await discoverDashboard(pinned), { state: 'gated', port: impostor });
  // Without api-port.txt at all, too.
  rmSync(join(home, 'api-port.txt'));
  assert.deepEqual(await discoverDashboard(pinned), { state: 'gated', port: impostor });
  assert.ok(seen.length >= 2, 'the stand-in was probed');
  for (const h of seen) {
    assert.equal(h.cookie, undefined);
    assert.equal(h.authorization, undefined);
  }
  assert.ok(!sawToken(seen), 'the token reached a port svc did not record');

  // A port found by the scan never gets the token either (the scan's ports are stand-ins here).
  const asked: number[] = [];
  const scanCtx = createContext(loadConfig({ SVC_HOME: home, STUDIO_ACCESS_TOKEN: TOKEN, CI: 'true' }), silentIo);
  const found = await discoverDashboard(scanCtx, async (p) => (p === 18795 ? 'gated' : 'closed'), async (p) => (asked.push(p), true));
  assert.deepEqual(found, { state: 'gated', port: 18795 });
  assert.deepEqual(asked, [], 'no token offered to a scanned port');
});

void test('Security (issue 15 #9): on svc\'s recorded port the token goes only after the probe identified a gated svc', async (t) => {
  const home = tempDir(t);
  const ctxFor = () => createContext(loadConfig({ SVC_HOME: home, STUDIO_ACCESS_TOKEN: TOKEN, CI: 'true' }), silentIo);
  // Something else on the recorded port (not svc, or an svc that is not gated): it never sees the token.
  const otherSeen: IncomingMessage['headers'][] = [];
  const other = await httpServer(t, (req, res) => (otherSeen.push(req.headers), json(res, 401, { error: 'unauthorized' })));
  const openSeen: IncomingMessage['headers'][] = [];
  const open = await httpServer(t, fakeSvc({ seen: openSeen }));
  writeFileSync(join(home, 'api-port.txt'), `${other}\n`);
  // Pinned to the same port, so nothing but it is probed (no scan of the machine's ports).
  const pinnedOther = createContext(loadConfig({ SVC_HOME: home, SVC_API_PORT: String(other), STUDIO_ACCESS_TOKEN: TOKEN, CI: 'true' }), silentIo);
  assert.deepEqual(await discoverDashboard(pinnedOther, probeDashboard, async () => assert.fail('token offered to a non-svc listener')), { state: 'none' });
  writeFileSync(join(home, 'api-port.txt'), `${open}\n`);
  assert.deepEqual(await discoverDashboard(ctxFor()), { state: 'running', port: open });
  assert.ok(!sawToken(otherSeen) && !sawToken(openSeen));

  // A gated svc on the recorded port: probed bare, then asked once with the bearer token.
  const gatedSeen: IncomingMessage['headers'][] = [];
  const gated = await httpServer(t, fakeSvc({ token: TOKEN, seen: gatedSeen }));
  writeFileSync(join(home, 'api-port.txt'), `${gated}\n`);
  assert.deepEqual(await discoverDashboard(ctxFor()), { state: 'running', port: gated, authorized: true });
  assert.equal(gatedSeen.length, 2);
  assert.equal(gatedSeen[0]?.authorization, undefined, 'the probe itself is bare');
  assert.equal(gatedSeen[1]?.authorization, `Bearer ${TOKEN}`);
  assert.ok(gatedSeen.every((h) => h.cookie === undefined), 'never a cookie');
  // A wrong token leaves it gated.
  const wrong = createContext(loadConfig({ SVC_HOME: home, STUDIO_ACCESS_TOKEN: 'not-it', CI: 'true' }), silentIo);
  assert.deepEqual(await discoverDashboard(wrong), { state: 'gated', port: gated });
});

void test('Command-line launcher: probe times out on a silent listener and reports a closed port', async (t) => {
  const silent = createTcpServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const port = (silent.address() as AddressInfo).port;
  const closedPort = await new Promise<number>((resolve) => {
    const s = createTcpServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  t.after(() => silent.close());
  // The listener never answers: only the probe's 300 ms timeout can end it (the deadline just stops a hang).
  assert.equal(await deadline(probeDashboard(port, { timeoutMs: 300 }), { what: 'the probe to give up on a silent listener' }), 'other');
  assert.equal(await probeDashboard(closedPort), 'closed');
});

void test('Command-line launcher: discovery finds a real listener through the port file', async (t) => {
  const home = tempDir(t);
  const port = await httpServer(t, fakeSvc());
  writeFileSync(join(home, 'api-port.txt'), `${port}\n`);
  const ctx = createContext(loadConfig({ SVC_HOME: home, CI: 'true' }), silentIo);
  assert.deepEqual(await discoverDashboard(ctx), { state: 'running', port });
});
