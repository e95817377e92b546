// shared/channels over a real worker_threads MessageChannel, in-process.
// No spec section: the house style "Across threads" (ids, timeouts, abort
// paths, errors as values, both sides validate).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { z } from 'zod';
import { createChannelClient } from '../../shared/channels/client.ts';
import { CHANNEL_VERSION, defineContract } from '../../shared/channels/contract.ts';
import { serveChannel } from '../../shared/channels/server.ts';

const calc = defineContract({
  name: 'calc',
  requests: {
    add: { payload: z.object({ a: z.number(), b: z.number() }), result: z.object({ sum: z.number() }) },
    fail: { payload: z.object({}), result: z.object({}) },
    hang: { payload: z.object({}), result: z.object({}) },
    wrong: { payload: z.object({}), result: z.object({ sum: z.number() }) },
    raw: { payload: z.object({}), result: z.unknown() },
  },
  events: { tick: z.object({ n: z.number().int() }) },
});

function setup(t: TestContext) {
  const { port1, port2 } = new MessageChannel();
  const invalid: string[] = [];
  const client = createChannelClient(calc, port1, { defaultTimeoutMs: 2000, onInvalid: (d) => invalid.push(d) });
  const server = serveChannel(calc, port2, {
    add: ({ a, b }) => ({ sum: a + b }),
    fail: async () => {
      throw new Error('handler exploded');
    },
    hang: () => new Promise<Record<string, never>>(() => undefined),
    wrong: () => ({ sum: 'three' }) as unknown as { sum: number },
    raw: () => ({ fn: () => 1 }),
  });
  t.after(() => {
    client.dispose();
    server.dispose();
    port1.close();
    port2.close();
  });
  return { port1, port2, client, server, invalid };
}

void test('Across threads: a request round-trips with a validated payload and result', async (t) => {
  const { client } = setup(t);
  assert.deepEqual(await client.request('add', { a: 2, b: 40 }), { ok: true, result: { sum: 42 } });
  const [x, y] = await Promise.all([client.request('add', { a: 1, b: 1 }), client.request('add', { a: -5, b: 0.5 })]);
  assert.deepEqual([x, y], [{ ok: true, result: { sum: 2 } }, { ok: true, result: { sum: -4.5 } }]);
  assert.equal(client.inFlight(), 0);
});

void test('Across threads: an invalid payload is refused as a value, on either side', async (t) => {
  const { client, port1 } = setup(t);
  const r = await client.request('add', { a: 'x', b: 1 } as unknown as { a: number; b: number });
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.error.code, 'INVALID_PAYLOAD');
  // The server validates too: a hand-made request that skips the client check.
  const reply = new Promise<unknown>((resolve) => port1.once('message', resolve));
  port1.postMessage({ v: CHANNEL_VERSION, type: 'req', id: 999, method: 'add', payload: { a: 1 } });
  const res = (await reply) as { id: number; ok: boolean; error: { code: string } };
  assert.deepEqual([res.id, res.ok, res.error.code], [999, false, 'INVALID_PAYLOAD']);
  const unknown = await client.request('nope' as 'add', { a: 1, b: 2 });
  assert.equal(!unknown.ok && unknown.error.code, 'UNKNOWN_METHOD');
});

void test('Across threads: a handler that throws answers HANDLER_ERROR with its message', async (t) => {
  const { client } = setup(t);
  const r = await client.request('fail', {});
  assert.deepEqual(r, { ok: false, error: { code: 'HANDLER_ERROR', message: 'handler exploded' } });
});

void test('Across threads: a result that fails its schema is INVALID_RESULT', async (t) => {
  const { client } = setup(t);
  const r = await client.request('wrong', {});
  assert.equal(!r.ok && r.error.code, 'INVALID_RESULT');
});

void test('Across threads: a request with no answer times out as a value', async (t) => {
  // The request's timer on node:test's mock clock: it fires when the test says so, not when the machine gets to it.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { client } = setup(t);
  const pending = client.request('hang', {}, { timeoutMs: 60 });
  t.mock.timers.tick(59);
  assert.equal(client.inFlight(), 1, 'still waiting 1 ms before its timeout');
  t.mock.timers.tick(1);
  assert.equal(client.inFlight(), 0, 'settled at its timeout');
  const r = await pending;
  assert.equal(!r.ok && r.error.code, 'TIMEOUT');
  assert.match(!r.ok ? r.error.message : '', /timed out after 60 ms/);
});

void test('Across threads: failAll fails every in-flight request; abort fails one', async (t) => {
  const { client } = setup(t);
  const a = client.request('hang', {});
  const b = client.request('hang', {});
  assert.equal(client.inFlight(), 2);
  client.failAll({ code: 'WORKER_EXIT', message: 'worker died' });
  const expected = { ok: false, error: { code: 'WORKER_EXIT', message: 'worker died' } };
  assert.deepEqual(await Promise.all([a, b]), [expected, expected]);
  assert.equal(client.inFlight(), 0);
  const ac = new AbortController();
  const c = client.request('hang', {}, { signal: ac.signal });
  ac.abort();
  const rc = await c;
  assert.equal(!rc.ok && rc.error.code, 'ABORTED');
});

void test('Across threads: a request with an already-aborted signal fails as ABORTED at once', async (t) => {
  const { client } = setup(t);
  const r = await client.request('hang', {}, { signal: AbortSignal.abort(), timeoutMs: 300 });
  assert.equal(!r.ok && r.error.code, 'ABORTED');
});

void test('Across threads: a result that cannot cross the thread boundary fails as a value, not a timeout', async (t) => {
  const { client } = setup(t);
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  t.after(() => process.off('unhandledRejection', onRejection));
  const r = await client.request('raw', {}, { timeoutMs: 300 });
  assert.equal(r.ok, false);
  assert.notEqual(!r.ok && r.error.code, 'TIMEOUT');
  assert.deepEqual(rejections, [], 'the server side leaves no unhandled rejection');
});

void test('Across threads: events are validated; an invalid event payload is not delivered', async (t) => {
  const { client, server, invalid } = setup(t);
  const got: number[] = [];
  const done = new Promise<void>((resolve) => client.on('tick', ({ n }) => {
    got.push(n);
    if (n === 3) resolve();
  }));
  server.emit('tick', { n: 1 });
  server.emit('tick', { n: 1.5 });
  server.emit('tick', { n: 'two' } as unknown as { n: number });
  server.emit('tock' as 'tick', { n: 9 });
  server.emit('tick', { n: 3 });
  await done;
  assert.deepEqual(got, [1, 3]);
  assert.deepEqual(invalid, ['calc: invalid tick payload', 'calc: invalid tick payload', 'calc: unknown event tock']);
});
