// svc's reconnecting gateway connection when there is no gateway: the state
// it reports, the backoff, a request that cannot wait forever, reconfigure
// and stop. (Connected behaviour is proven against the real gateway in
// test/gateway/gateway.test.ts.) Issue 16 #5: what happens is read from the
// connection's status and log, not timed.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pino } from 'pino';
import { createGatewayConnection } from '../../shared/gateway/connection.ts';
import { loadOrCreateDeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { GatewayError } from '../../shared/gateway/protocol.ts';
import { createLogger } from '../../shared/log.ts';
import { freePort, removeHome, tempHome } from '../helpers/server.ts';
import { deadline, sleep, waitFor } from '../helpers/wait.ts';

const MAX_BACKOFF_MS = 40;

/** A device identity in a temporary home, and a loopback port nothing listens on. */
async function nothingListening(t: TestContext) {
  const home = tempHome();
  t.after(() => removeHome(home));
  return { identity: loadOrCreateDeviceIdentity(join(home, 'id.json')), port: await freePort() };
}

void test('Gateway connection: nothing listening → backoff with UNREACHABLE, growing failures; a request fails with UNAVAILABLE after its wait; stop ends it', async (t) => {
  const { identity, port: firstPort } = await nothingListening(t);
  let port = firstPort;
  let targets = 0;
  const logs: string[] = [];
  const conn = createGatewayConnection({
    logger: createLogger({ level: 'warn' }, { write: (line: string) => void logs.push(line) }),
    baseBackoffMs: 20,
    maxBackoffMs: MAX_BACKOFF_MS,
    target: () => {
      targets++;
      return { url: `ws://127.0.0.1:${port}`, token: 'secret-token-value', identity, version: 'test' };
    },
  });
  t.after(() => conn.stop());
  assert.equal(conn.status().state, 'idle');
  conn.start();
  const settled = await conn.settled(30_000);
  assert.equal(settled.state, 'backoff');
  assert.equal(settled.lastError?.code, 'UNREACHABLE');
  assert.ok(!JSON.stringify(settled).includes('secret-token-value'));
  await waitFor(() => conn.status().failures >= 3, { what: 'three failed connects' });
  const retries = logs.slice(0, 3).map((l) => (JSON.parse(l) as { retryInMs: number }).retryInMs);
  assert.deepEqual(retries, [20, 40, 40], 'the backoff doubles up to its cap');
  assert.ok(logs.every((l) => !l.includes('secret-token-value')));

  await assert.rejects(
    deadline(conn.request('agents.list', {}, { waitMs: 150 }), { what: 'a request to give up after its 150 ms wait' }),
    (err: GatewayError) => err instanceof GatewayError && err.code === 'UNAVAILABLE' && /UNREACHABLE/.test(err.message),
  );

  // reconfigure resets the failure count and asks the target again.
  const before = targets;
  port = await freePort();
  conn.reconfigure();
  assert.deepEqual([conn.status().state, conn.status().failures], ['idle', 0]);
  await waitFor(() => targets > before, { what: 'reconfigure to ask the target again' });

  await conn.stop();
  assert.equal(conn.status().state, 'stopped');
  const after = targets;
  // Every retry runs on a backoff timer of at most MAX_BACKOFF_MS; Node fires
  // timers in order of expiry, so once this later one has fired, any the
  // connection armed before stop has had its turn.
  await sleep(MAX_BACKOFF_MS + 1);
  assert.equal(targets, after, 'no attempts after stop');
  await assert.rejects(conn.request('agents.list'), (err: GatewayError) => err.code === 'UNAVAILABLE');
});

/**
 * A connection to a port nothing listens on whose retry after a failure is an
 * hour away: within a test, only the caller (reconfigure, nudge) makes it try
 * again. `targets()` counts the attempts that asked for the target.
 */
async function hourBackoff(t: TestContext) {
  const { identity, port } = await nothingListening(t);
  let targets = 0;
  const conn = createGatewayConnection({
    logger: pino({ level: 'silent' }),
    baseBackoffMs: 3_600_000,
    maxBackoffMs: 3_600_000,
    target: () => {
      targets++;
      return { url: `ws://127.0.0.1:${port}`, token: 't', identity, version: 'test' };
    },
  });
  t.after(() => conn.stop());
  return { conn, targets: () => targets };
}

void test('Gateway connection: reconfigure connects again at once, without waiting out the backoff', async (t) => {
  const { conn, targets } = await hourBackoff(t);
  conn.start();
  await waitFor(() => conn.status().failures === 1, { what: 'the first failed connect' });
  assert.equal(targets(), 1);
  conn.reconfigure();
  assert.deepEqual([conn.status().state, conn.status().failures], ['idle', 0], 'the failure count is reset');
  await waitFor(() => targets() === 2, { what: 'reconfigure to ask the target again' });
  await waitFor(() => conn.status().failures === 1, { what: 'the second connect to fail' });
});

void test('Team chat (issue 17 #3): nudge tries again at once from a backoff, keeping the failure count', async (t) => {
  const { conn, targets } = await hourBackoff(t);
  conn.nudge();
  assert.equal(targets(), 0, 'a connection that was never started is not started by a nudge');
  conn.start();
  await waitFor(() => conn.status().failures === 1, { what: 'the first failed connect' });
  conn.nudge();
  await waitFor(() => conn.status().failures === 2, { what: 'the nudged connect to fail too' });
  assert.equal(targets(), 2);
  assert.equal(conn.status().state, 'backoff');
});

void test('Gateway connection: no gateway configured → idle, no attempts', async () => {
  const conn = createGatewayConnection({ logger: pino({ level: 'silent' }), target: () => null });
  conn.start();
  const s = await conn.settled(1000);
  assert.equal(s.state, 'idle');
  assert.equal(s.lastError, null);
  await conn.stop();
});
