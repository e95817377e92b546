// Spec "Authentication" 1-7 through the real app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';

const TOKEN = 'Secret-Token_1.2~3';

void test('Authentication 1: with no token every route is open', async (t) => {
  const { app } = await buildTestApp(t);
  assert.equal((await app.inject('/api/settings')).statusCode, 200);
});

void test('Authentication 2, 6: a gated server answers a service-specific JSON 401; the query token sets the cookie', async (t) => {
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: TOKEN } });
  const denied = await app.inject('/api/settings');
  assert.equal(denied.statusCode, 401);
  assert.deepEqual(denied.json(), { error: 'access token required', service: 'svc' });

  const viaQuery = await app.inject(`/api/settings?access_token=${encodeURIComponent(TOKEN)}`);
  assert.equal(viaQuery.statusCode, 200);
  const cookie = String(viaQuery.headers['set-cookie']);
  assert.match(cookie, /^svc_access=/);
  assert.match(cookie, /; Path=\/; HttpOnly; SameSite=Strict; Max-Age=2592000$/);
  assert.doesNotMatch(cookie, /Secure/);

  const cookieValue = cookie.split(';')[0] as string;
  const withCookie = await app.inject({ url: '/api/settings', headers: { cookie: cookieValue } });
  assert.equal(withCookie.statusCode, 200);
  assert.equal(typeof withCookie.json().gatewayUrl, 'string');

  const wrong = await app.inject({ url: '/api/settings', headers: { cookie: 'svc_access=nope' } });
  assert.equal(wrong.statusCode, 401);
  const wrongQuery = await app.inject('/api/settings?access_token=nope');
  assert.equal(wrongQuery.statusCode, 401);
});

void test('Authentication 2: the cookie is Secure only behind X-Forwarded-Proto https', async (t) => {
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: TOKEN } });
  const res = await app.inject({ url: `/api/settings?access_token=${TOKEN}`, headers: { 'x-forwarded-proto': 'https' } });
  assert.match(String(res.headers['set-cookie']), /; Secure/);
});

void test('Authentication 3: the /api/ check is case-folded', async (t) => {
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: TOKEN } });
  for (const path of ['/API/settings', '/Api/Settings', '/api/SETTINGS']) {
    const res = await app.inject(path);
    assert.equal(res.statusCode, 401, path);
    assert.equal(res.json().service, 'svc');
  }
});

void test('Security (issue 15 #12): the cookie is a session value, not the token; the raw token as a cookie is refused', async (t) => {
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: TOKEN } });
  const first = await app.inject(`/api/settings?access_token=${TOKEN}`);
  const second = await app.inject(`/api/settings?access_token=${TOKEN}`);
  const a = String(first.headers['set-cookie']).split(';')[0] as string;
  const b = String(second.headers['set-cookie']).split(';')[0] as string;
  assert.ok(!a.includes(TOKEN) && !a.includes(encodeURIComponent(TOKEN)), a);
  assert.notEqual(a, b, 'each use of the token mints its own session');
  for (const cookie of [a, b]) assert.equal((await app.inject({ url: '/api/settings', headers: { cookie } })).statusCode, 200);
  for (const cookie of [`svc_access=${TOKEN}`, `svc_access=${encodeURIComponent(TOKEN)}`]) {
    const raw = await app.inject({ url: '/api/settings', headers: { cookie } });
    assert.equal(raw.statusCode, 401, cookie);
  }
});

void test('Security (issue 15 #12): a restart ends every session minted before it', async (t) => {
  const env = { STUDIO_ACCESS_TOKEN: TOKEN };
  const before = await buildTestApp(t, { env });
  const cookie = String((await before.app.inject(`/api/settings?access_token=${TOKEN}`)).headers['set-cookie']).split(';')[0] as string;
  assert.equal((await before.app.inject({ url: '/api/settings', headers: { cookie } })).statusCode, 200);
  const restarted = await buildTestApp(t, { env });
  assert.equal((await restarted.app.inject({ url: '/api/settings', headers: { cookie } })).statusCode, 401);
});

void test('Security (issue 15 #1): Authorization: Bearer <token> opens the API for a program and sets no cookie', async (t) => {
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: TOKEN } });
  const ok = await app.inject({ url: '/api/settings', headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.headers['set-cookie'], undefined);
  const post = await app.inject({ method: 'POST', url: '/api/teams', headers: { authorization: `Bearer ${TOKEN}` }, payload: { name: 'n', icon: 'i', color: 'c' } });
  assert.equal(post.statusCode, 200);
  const wrong = await app.inject({ url: '/api/settings', headers: { authorization: `Bearer ${TOKEN}x` } });
  assert.equal(wrong.statusCode, 401);
  assert.deepEqual(wrong.json(), { error: 'access token required', service: 'svc' });
});

void test('Security (issue 15 #1): a method the route does not have, or an unknown /api path, is 401 too (deny by default)', async (t) => {
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: TOKEN } });
  for (const [method, url] of [['PUT', '/api/settings'], ['GET', '/api/nope'], ['DELETE', '/api'], ['GET', '/api/%zz']] as const) {
    const res = await app.inject({ method, url });
    assert.equal(res.statusCode, url === '/api/%zz' ? 400 : 401, `${method} ${url}`);
  }
});

void test('Authentication: a page visit with the token redirects to the same page without it and sets the cookie', async (t) => {
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: TOKEN } });
  const res = await app.inject(`/teams?x=1&access_token=${TOKEN}`);
  assert.equal(res.statusCode, 302);
  assert.equal(res.headers.location, '/teams?x=1');
  assert.match(String(res.headers['set-cookie']), /^svc_access=/);
  const page = await app.inject('/');
  assert.equal(page.statusCode, 200, 'the UI shell itself holds no data and is not gated');
});

void test('Authentication 5: a token with a character outside [A-Za-z0-9._~-] disables the gate with a loud warning', async (t) => {
  const { app, logs } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: 'has space!' } });
  assert.equal((await app.inject('/api/settings')).statusCode, 200);
  assert.match(logs.join('\n'), /access gate is DISABLED/);
});

void test('Logging: the request log never records an access_token value', async (t) => {
  const { app, logs } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: TOKEN, LOG_LEVEL: 'debug' } });
  await app.inject(`/api/settings?access_token=${TOKEN}`);
  await app.inject('/api/settings?access_token=wrong-guess-123');
  const text = logs.join('\n');
  assert.match(text, /api\/settings/);
  assert.ok(!text.includes(TOKEN), 'the real token leaked into the log');
  assert.ok(!text.includes('wrong-guess-123'), 'a guessed token leaked into the log');
});
