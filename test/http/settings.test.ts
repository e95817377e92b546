// Spec "Settings and health": GET/POST /api/settings and settings.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTestApp } from '../helpers/app.ts';
import { removeHome, tempHome } from '../helpers/server.ts';

void test('Settings view → GET /api/settings: defaults before anything is saved', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject('/api/settings');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { gatewayUrl: 'ws://localhost:18789', hasToken: false, firstRunDismissedAt: null });
});

void test('POST /api/settings: partial updates, settings.json shape, the token never returned', async (t) => {
  const { app, home } = await buildTestApp(t);
  const token = 'tok-abcdef-123456';
  let res = await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: 'wss://gw.example:443', gatewayToken: token } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true });
  const file = join(home, 'settings.json');
  const disk = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(disk.gateway, { url: 'wss://gw.example:443', token });
  assert.equal(statSync(file).mode & 0o777, 0o600);

  res = await app.inject({ method: 'POST', url: '/api/settings', payload: { firstRunDismissedAt: 1234 } });
  assert.equal(res.statusCode, 200);
  const view = (await app.inject('/api/settings')).json();
  assert.deepEqual(view, { gatewayUrl: 'wss://gw.example:443', hasToken: true, firstRunDismissedAt: 1234 });
  assert.ok(!JSON.stringify(view).includes(token));

  await app.inject({ method: 'POST', url: '/api/settings', payload: { firstRunDismissedAt: 'soon' } });
  assert.equal((await app.inject('/api/settings')).json().firstRunDismissedAt, 1234, 'a non-number is not applied');

  await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayToken: '' } });
  assert.equal((await app.inject('/api/settings')).json().hasToken, false, 'empty string clears');
});

void test('POST /api/settings: bad input gets the spec messages and changes nothing', async (t) => {
  const { app, home } = await buildTestApp(t);
  const cases: Array<[unknown, string]> = [
    [[1, 2], 'JSON body required'],
    ['"text"', 'JSON body required'],
    [{ gatewayUrl: 'http://localhost:18789' }, 'gatewayUrl must be a ws:// or wss:// URL'],
    [{ gatewayUrl: 'not a url' }, 'gatewayUrl must be a ws:// or wss:// URL'],
  ];
  for (const [payload, error] of cases) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/settings',
      headers: { 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.deepEqual(res.json(), { error });
  }
  const empty = await app.inject({ method: 'POST', url: '/api/settings' });
  assert.equal(empty.statusCode, 400);
  assert.deepEqual(empty.json(), { error: 'JSON body required' });
  assert.equal(existsSync(join(home, 'settings.json')), false);
});

void test('Settings file: a ${NAME} token resolves through the gateway env file; the gateway config supplies token and port', async (t) => {
  // The gateway's files are there before svc starts, so no cached read from before them is in play
  // (that a hand edit shows once the cache has aged is settings-cache.test.ts's, on an injected clock).
  const stateDir = tempHome('svc-gateway-state-');
  t.after(() => removeHome(stateDir));
  writeFileSync(join(stateDir, 'openclaw.json'), '{ "gateway": { "port": 19555, "auth": { "token": "${GW_TOK}" } }, }');
  writeFileSync(join(stateDir, '.env'), 'GW_TOK=from-env-file-123\n');
  const { app, home, config } = await buildTestApp(t, { env: { OPENCLAW_STATE_DIR: stateDir } });
  assert.equal(config.gatewayStateDir, stateDir);
  // Nothing saved: the gateway config supplies token and port.
  const view = (await app.inject('/api/settings')).json();
  assert.deepEqual(view, { gatewayUrl: 'ws://localhost:19555', hasToken: true, firstRunDismissedAt: null });
  assert.ok(!existsSync(join(home, 'settings.json')));
});
