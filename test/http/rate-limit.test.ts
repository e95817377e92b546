// Issue 16 #6 and spec "Limits": the general router-wide rate limit, below
// the sensitive tier, over inject(). The app is built with an injected clock
// (buildApp's `now`), so no test waits for a minute to pass.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, loadConfig } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';
import { buildApp } from '../../supervisor/http/app.ts';
import { createRuntime } from '../../supervisor/runtime.ts';
import { buildTestApp } from '../helpers/app.ts';
import { removeHome, tempHome, testEnv } from '../helpers/server.ts';

/** buildTestApp with the rate limit's clock in the test's hands. */
async function appWithClock(t: TestContext, env: Record<string, string>) {
  const home = tempHome();
  const config = loadConfig(testEnv(home, { LOG_LEVEL: 'info', ...env }));
  const logger = createLogger({ level: 'silent' }, { write: () => undefined });
  const runtime = createRuntime(config, logger, { startWorkers: false });
  let now = 1_800_000_000_000;
  const app = buildApp(runtime.deps, { now: () => now });
  await app.ready();
  t.after(async () => {
    await app.close();
    await runtime.close();
    removeHome(home);
  });
  return { app, advance: (ms: number) => void (now += ms) };
}

const get = (app: FastifyInstance, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: '/api/settings', remoteAddress, headers });

void test('Limits (issue 16 #6): a loopback client past the general limit gets 429 with Retry-After; another address is unaffected; the window frees after a minute', async (t) => {
  const { app, advance } = await appWithClock(t, { SVC_RATE_LIMIT: '5' });
  for (let i = 1; i <= 5; i++) assert.equal((await get(app)).statusCode, 200, `request ${i}`);
  const limited = await get(app);
  assert.equal(limited.statusCode, 429);
  assert.deepEqual(limited.json(), { error: 'rate limit exceeded: 5 requests per minute' });
  assert.equal(limited.headers['retry-after'], '60');
  assert.equal(limited.headers['x-frame-options'], 'DENY', 'the refusal carries the anti-framing headers');
  // Every route counts, matched or not.
  assert.equal((await app.inject({ method: 'GET', url: '/api/nope' })).statusCode, 429);
  assert.equal((await get(app, '127.0.0.2')).statusCode, 200, 'another client address has its own budget');
  advance(45_000);
  const later = await get(app);
  assert.equal(later.statusCode, 429);
  assert.equal(later.headers['retry-after'], '15');
  advance(15_000);
  assert.equal((await get(app)).statusCode, 200, 'the window has freed');
});

void test('Limits (issue 16 #6): the default limit is 20000 a minute per address, loopback included; SVC_RATE_LIMIT=off never limits', async (t) => {
  const limited = await appWithClock(t, {});
  const off = await appWithClock(t, { SVC_RATE_LIMIT: 'off' });
  const statuses = { limited: new Map<number, number>(), off: new Map<number, number>() };
  for (let i = 0; i <= DEFAULT_RATE_LIMIT_PER_MINUTE; i++) {
    for (const [name, a] of [['limited', limited.app], ['off', off.app]] as const) {
      const s = (await a.inject({ method: 'GET', url: '/api/nope' })).statusCode;
      statuses[name].set(s, (statuses[name].get(s) ?? 0) + 1);
    }
  }
  assert.deepEqual([...statuses.limited], [[404, DEFAULT_RATE_LIMIT_PER_MINUTE], [429, 1]]);
  assert.deepEqual([...statuses.off], [[404, DEFAULT_RATE_LIMIT_PER_MINUTE + 1]]);
});

void test('Limits (issue 16 #6): requests the rebinding guard refuses do not count; the gate\'s 401s do', async (t) => {
  const { app } = await appWithClock(t, { SVC_RATE_LIMIT: '2' });
  for (let i = 0; i < 5; i++) assert.equal((await get(app, '127.0.0.1', { host: 'evil.example' })).statusCode, 403);
  assert.equal((await get(app)).statusCode, 200);
  assert.equal((await get(app)).statusCode, 200);
  assert.equal((await get(app)).statusCode, 429);

  const gated = await appWithClock(t, { SVC_RATE_LIMIT: '2', STUDIO_ACCESS_TOKEN: 'rate-token-1' });
  assert.equal((await get(gated.app)).statusCode, 401);
  assert.equal((await get(gated.app)).statusCode, 401);
  const third = await get(gated.app, '127.0.0.1', { authorization: 'Bearer rate-token-1' });
  assert.equal(third.statusCode, 429, 'a client hammering the gate is throttled, even with the token');
});

const revoke = (app: FastifyInstance, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/exec-allowlist/revoke', remoteAddress, payload: { agentId: 'gw-main', keys: [] } });

void test('Limits (issue 16 #6): both tiers apply to the revoke: the sensitive tier answers the 61st in a minute, the general one whichever is lower', async (t) => {
  const generous = await appWithClock(t, { SVC_RATE_LIMIT: '100' });
  for (let i = 1; i <= 60; i++) assert.equal((await revoke(generous.app)).statusCode, 400, `call ${i}`);
  const sensitive = await revoke(generous.app);
  assert.equal(sensitive.statusCode, 429);
  // @fastify/rate-limit counts its window on the real clock: after a slow minute's first second it says "59 seconds".
  const refusal = sensitive.json() as { error: string };
  assert.deepEqual(Object.keys(refusal), ['error']);
  assert.match(refusal.error, /^Rate limit exceeded, retry in (1 minute|[1-5]?\d seconds)$/);

  const strict = await appWithClock(t, { SVC_RATE_LIMIT: '10' });
  for (let i = 1; i <= 10; i++) assert.equal((await revoke(strict.app)).statusCode, 400, `call ${i}`);
  const general = await revoke(strict.app);
  assert.equal(general.statusCode, 429);
  assert.deepEqual(general.json(), { error: 'rate limit exceeded: 10 requests per minute' });
});

void test('Limits (issue 16 #6): buildTestApp\'s apps are limited by default like svc itself', async (t) => {
  const { app, config } = await buildTestApp(t, { env: { SVC_RATE_LIMIT: '1' } });
  assert.equal(config.rateLimitPerMinute, 1);
  assert.equal((await get(app)).statusCode, 200);
  assert.equal((await get(app)).statusCode, 429);
});
