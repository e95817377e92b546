// svc's reconnecting gateway connection when there is no gateway: the state
// it reports, the backoff, a request that cannot wait forever, reconfigure
// and stop. (Connected behaviour is proven against the real gateway in
// test/e2e/gateway.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pino } from 'pino';
import { createGatewayConnection } from '../../shared/gateway/connection.ts';
import { loadOrCreateDeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { GatewayError } from '../../shared/gateway/frames.ts';
import { freePort, removeHome, tempHome } from '../helpers/server.ts';

void test('Gateway connection: nothing listening → backoff with UNREACHABLE, growing failures; a request fails with UNAVAILABLE after its wait; stop ends it', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const identity = loadOrCreateDeviceIdentity(join(home, 'id.json'));
  let port = await freePort();
  let targets = 0;
  const conn = createGatewayConnection({
    logger: pino({ level: 'silent' }),
    baseBackoffMs: 20,
    maxBackoffMs: 40,
    target: () => {
      targets++;
      return { url: `ws://127.0.0.1:${port}`, token: 'secret-token-value', identity, version: 'test' };
    },
  });
  t.after(() => conn.stop());
  assert.equal(conn.status().state, 'idle');
  conn.start();
  const settled = await conn.settled(5000);
  assert.equal(settled.state, 'backoff');
  assert.equal(settled.lastError?.code, 'UNREACHABLE');
  assert.ok(!JSON.stringify(settled).includes('secret-token-value'));
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(conn.status().failures >= 3, `retries with backoff: ${conn.status().failures}`);

  const t0 = Date.now();
  await assert.rejects(conn.request('agents.list', {}, { waitMs: 150 }), (err: GatewayError) => err instanceof GatewayError && err.code === 'UNAVAILABLE' && /UNREACHABLE/.test(err.message));
  assert.ok(Date.now() - t0 < 2000, 'bounded by waitMs');

  // reconfigure resets the failure count and asks the target again at once.
  const before = targets;
  port = await freePort();
  conn.reconfigure();
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(targets > before);

  await conn.stop();
  assert.equal(conn.status().state, 'stopped');
  const after = targets;
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(targets, after, 'no attempts after stop');
  await assert.rejects(conn.request('agents.list'), (err: GatewayError) => err.code === 'UNAVAILABLE');
});

void test('Gateway connection: no gateway configured → idle, no attempts', async () => {
  const conn = createGatewayConnection({ logger: pino({ level: 'silent' }), target: () => null });
  conn.start();
  const s = await conn.settled(1000);
  assert.equal(s.state, 'idle');
  assert.equal(s.lastError, null);
  await conn.stop();
});
