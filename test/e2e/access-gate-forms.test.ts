// Issue 15 #1 on real sockets: the access gate covers every request whatever
// the form of its target (absolute-form, %-escapes, doubled slashes,
// backslashes, dot segments, case), for GET, POST and the WebSocket upgrade;
// no spelling of an /api path gets the UI or a route's answer. The targets
// are written byte for byte on a socket: fetch and inject() normalise them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startServer, removeHome, type RunningServer } from '../helpers/server.ts';
import { tryUpgrade } from '../helpers/http.ts';

const TOKEN = 'forms-token-42';
const GATE_BODY = { error: 'access token required', service: 'svc' };

interface RawReply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** One request with the exact request target given; the answer parsed from the bytes received. */
function send(port: number, target: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    sock.on('connect', () => {
      const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, Connection: 'close', ...opts.headers };
      if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body));
      const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      sock.write(`${opts.method ?? 'GET'} ${target} HTTP/1.1\r\n${head}\r\n${opts.body ?? ''}`);
    });
    sock.on('data', (d: Buffer) => chunks.push(d));
    sock.on('error', reject);
    sock.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers = new Map<string, string>();
      for (const l of lines) {
        const i = l.indexOf(':');
        headers.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
  });
}

let gated: RunningServer;
let open: RunningServer;

before(async () => {
  [gated, open] = await Promise.all([startServer({ env: { STUDIO_ACCESS_TOKEN: TOKEN } }), startServer()]);
});

after(async () => {
  for (const s of [gated, open]) {
    await s?.stop();
    if (s) removeHome(s.home);
  }
});

/** Every spelling of `path` (an /api path) the issue lists, as request targets for this server. */
function spellings(port: number, path: string): string[] {
  const upper = path.replace('/api/', '/API/');
  return [
    `http://127.0.0.1:${port}${path}`,
    `HTTP://127.0.0.1:${port}${path}`,
    `http://evil.example${path}`,
    `https://127.0.0.1:${port}${path}`,
    `http://127.0.0.1:${port}/${path}`,
    `http://127.0.0.1:${port}${upper}`,
    `/%61pi${path.slice(4)}`,
    path.replace('/api/', '/%61%70%69%2f'),
    `/${path}`,
    path.replace('/api/', '/api//'),
    `/\\${path.slice(1)}`,
    path.replace('/api/', '/api\\'),
    `/x/..${path}`,
    `/./${path.slice(1)}`,
    `/x/%2e%2e${path}`,
    upper,
  ];
}

void test('Security (issue 15 #1): with the gate on, GET of /api/settings is 401 in every target form, never the data or the UI', async () => {
  // The bypass the review found: an absolute-form target reached the route.
  for (const target of ['/api/settings', ...spellings(gated.port, '/api/settings')]) {
    const res = await send(gated.port, target);
    assert.equal(res.status, 401, `${target} → ${res.status} ${res.body.slice(0, 80)}`);
    assert.deepEqual(JSON.parse(res.body), GATE_BODY, target);
  }
});

void test('Security (issue 15 #1): with the gate on, POST /api/teams is 401 in every target form and creates nothing', async () => {
  const body = JSON.stringify({ name: 'intruder', icon: 'x', color: '#000000' });
  for (const target of ['/api/teams', ...spellings(gated.port, '/api/teams')]) {
    const res = await send(gated.port, target, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    assert.equal(res.status, 401, `${target} → ${res.status} ${res.body.slice(0, 80)}`);
    assert.deepEqual(JSON.parse(res.body), GATE_BODY, target);
  }
  const teams = await fetch(`${gated.base}/api/teams`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(teams.status, 200);
  assert.ok(!JSON.stringify(await teams.json()).includes('intruder'), 'no team was created');
});

void test('Security (issue 15 #1): the WebSocket upgrade is refused without the session cookie in every target form', async () => {
  for (const target of ['/api/gateway/ws', ...spellings(gated.port, '/api/gateway/ws')]) {
    assert.equal(await tryUpgrade(gated.port, target), 'destroyed', target);
  }
  // Neither the raw token as a cookie nor a bearer header opens it (spec "Authentication" 4: the cookie).
  assert.equal(await tryUpgrade(gated.port, '/api/gateway/ws', { Cookie: `svc_access=${TOKEN}` }), 'destroyed');
  const minted = await fetch(`${gated.base}/api/health?access_token=${TOKEN}`);
  const cookie = (minted.headers.get('set-cookie') ?? '').split(';')[0] as string;
  assert.equal(await tryUpgrade(gated.port, '/api/gateway/ws', { Cookie: cookie }), 'HTTP/1.1 101 Switching Protocols');
  assert.equal(await tryUpgrade(gated.port, `http://127.0.0.1:${gated.port}/api/gateway/ws`, { Cookie: cookie }), 'HTTP/1.1 101 Switching Protocols');
});

void test('Security (issue 15 #1): the session cookie or the bearer token still opens the absolute-form target', async () => {
  const minted = await fetch(`${gated.base}/api/health?access_token=${TOKEN}`);
  const cookie = (minted.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const viaCookie = await send(gated.port, `http://127.0.0.1:${gated.port}/api/settings`, { headers: { Cookie: cookie } });
  assert.equal(viaCookie.status, 200);
  assert.equal(typeof JSON.parse(viaCookie.body).gatewayUrl, 'string');
  const viaBearer = await send(gated.port, `http://127.0.0.1:${gated.port}/api/settings`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  assert.equal(viaBearer.status, 200);
});

void test('Security (issue 15 #1): without the gate, an odd spelling of an /api path gets the route or a 404 envelope, never the UI page', async () => {
  for (const target of spellings(open.port, '/api/settings')) {
    const res = await send(open.port, target);
    assert.doesNotMatch(String(res.headers.get('content-type')), /text\/html/, `${target} got the UI`);
    assert.ok(res.status === 200 || res.status === 404, `${target} → ${res.status}`);
    if (res.status === 404) assert.deepEqual(JSON.parse(res.body), { error: 'not found' }, target);
    else assert.equal(typeof JSON.parse(res.body).gatewayUrl, 'string', target);
  }
  const page = await send(open.port, '/teams/1');
  assert.equal(page.status, 200);
  assert.match(String(page.headers.get('content-type')), /text\/html/);
});

void test('Security (issue 15 #12): on a real socket, GET //evil.example?access_token= redirects to a path on this origin', async () => {
  for (const target of [`//evil.example?access_token=${TOKEN}`, `/\\evil.example?access_token=${TOKEN}`, `/%2F%2Fevil.example/?access_token=${TOKEN}`,
    `http://evil.example/?access_token=${TOKEN}`, `///evil.example/x?a=1&access_token=${TOKEN}`]) {
    const res = await send(gated.port, target);
    assert.equal(res.status, 302, target);
    const location = res.headers.get('location') ?? '';
    assert.match(location, /^\/(?![/\\])/, `${target} → ${location}`);
    assert.equal(new URL(location, gated.base).origin, gated.base, `${target} → ${location}`);
    assert.ok(!location.includes(TOKEN));
    assert.match(res.headers.get('set-cookie') ?? '', /^svc_access=/);
  }
});
