// supervisor/services/stream-hub.ts with fake rows. Spec "GET /api/obs/stream"
// (per row `id: <seq>` frames in ascending order past the cursor) and "SSE
// streams".
// The hub's clock and timers are the test's (issue 16 #5): what a flush
// delivers depends on when it runs, so the test says when that is.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { FLUSH_INTERVAL_MS, StreamHub, type Subscriber } from '../../supervisor/services/stream-hub.ts';

interface Row { seq: number; teamId: string }
const row = (seq: number, teamId = 'a'): Row => ({ seq, teamId });
const rows = (...seqs: number[]) => seqs.map((s) => row(s));
const frame = (r: Row) => `id: ${r.seq}\ndata: ${r.teamId}\n\n`;
const frames = (...seqs: number[]) => seqs.map((s) => frame(row(s))).join('');
const seqsIn = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

/**
 * The hub's clock (performance.now) and timers (setTimeout, setImmediate),
 * run by the test: `turn()` runs what is due now, the next turn of the event
 * loop; `flush()` lets the throttle interval pass, so every pending committed
 * row has been flushed.
 */
function mockClock(t: TestContext) {
  let now = 1_000;
  t.mock.method(performance, 'now', () => now);
  t.mock.timers.enable({ apis: ['setTimeout', 'setImmediate'] });
  return {
    turn: () => t.mock.timers.tick(0),
    flush: () => {
      now += FLUSH_INTERVAL_MS;
      t.mock.timers.tick(FLUSH_INTERVAL_MS);
    },
  };
}

function setup(start = 0) {
  const watermarks = new Float64Array(2);
  let pokes = 0;
  const hub = new StreamHub<Row>({ table: 'events', cursorOf: (r) => r.seq, frame, watermarks, poke: () => void pokes++ });
  hub.reset(start);
  const sub = (cursor = start, matches: (r: Row) => boolean = () => true) => {
    const writes: string[] = [];
    const s: Subscriber<Row> = { cursor, matches, write: (t) => (writes.push(String(t)), true) };
    const unsubscribe = hub.subscribe(s);
    return { s, writes, unsubscribe };
  };
  return { hub, watermarks, sub, pokes: () => pokes };
}

void test('GET /api/obs/stream: committed contiguous rows go out on the next turn, in cursor order', async (t) => {
  const clock = mockClock(t);
  const { hub, sub, pokes, watermarks } = setup(0);
  const { writes } = sub();
  hub.offerCommitted(rows(1));
  hub.offerCommitted(rows(3, 2));
  assert.deepEqual(writes, [], 'nothing is written synchronously');
  clock.flush();
  assert.deepEqual(writes, [frames(1, 2, 3)]);
  assert.equal(hub.watermark, 3);
  assert.equal(watermarks[0], 3, 'the events slot of the shared watermarks');
  assert.equal(watermarks[1], 0);
  assert.equal(pokes(), 0);
});

void test('GET /api/obs/stream: a committed row after a gap is held back and the tail is poked', async (t) => {
  const clock = mockClock(t);
  const { hub, sub, pokes } = setup(5);
  const { writes } = sub();
  hub.offerCommitted(rows(7, 8));
  clock.flush();
  assert.deepEqual(writes, []);
  assert.equal(pokes(), 1);
  assert.equal(hub.watermark, 5);
  hub.offerTailed(rows(6, 7, 8));
  assert.deepEqual(writes, [frames(6, 7, 8)]);
  hub.offerCommitted(rows(7, 8));
  clock.flush();
  hub.offerTailed(rows(6, 7, 8));
  assert.deepEqual(writes, [frames(6, 7, 8)], 'no duplicates from either path');
  assert.equal(pokes(), 1);
});

void test('GET /api/obs/stream: rows before a gap go out at once, the rest come from the tail exactly once', async (t) => {
  const clock = mockClock(t);
  const { hub, sub, pokes } = setup(0);
  const { writes } = sub();
  hub.offerCommitted(rows(1, 3));
  clock.flush();
  assert.deepEqual(writes, [frames(1)]);
  assert.equal(pokes(), 1);
  hub.offerTailed(rows(1, 2, 3));
  assert.deepEqual(writes, [frames(1), frames(2, 3)]);
});

void test('GET /api/obs/stream: rows the tail delivered before the commit flush are not sent twice', async (t) => {
  const clock = mockClock(t);
  const { hub, sub } = setup(0);
  const { writes } = sub();
  hub.offerCommitted(rows(1, 2));
  hub.offerTailed(rows(1, 2));
  clock.flush();
  assert.deepEqual(writes, [frames(1, 2)]);
});

void test('GET /api/obs/stream: a subscriber cursor skips rows it already has and then advances', async (t) => {
  const clock = mockClock(t);
  const { hub, sub } = setup(0);
  const caughtUp = sub(2);
  const fresh = sub(0);
  hub.offerTailed(rows(1, 2, 3, 4));
  assert.deepEqual(caughtUp.writes, [frames(3, 4)]);
  assert.deepEqual(fresh.writes, [frames(1, 2, 3, 4)]);
  assert.equal(caughtUp.s.cursor, 4);
  hub.offerCommitted(rows(5));
  clock.flush();
  assert.deepEqual(caughtUp.writes, [frames(3, 4), frames(5)]);
});

void test('GET /api/obs/stream: matches() filters rows; the cursor still moves past rows it skipped', () => {
  const { hub, sub } = setup(0);
  const teamA = sub(0, (r) => r.teamId === 'a');
  const teamC = sub(0, (r) => r.teamId === 'c');
  hub.offerTailed([row(1, 'a'), row(2, 'b'), row(3, 'a'), row(4, 'b')]);
  assert.deepEqual(teamA.writes, [frame(row(1, 'a')) + frame(row(3, 'a'))]);
  assert.deepEqual(teamC.writes, [], 'no empty write');
  assert.equal(teamA.s.cursor, 4);
  assert.equal(teamC.s.cursor, 4);
});

void test('SSE streams: one write per subscriber per flush; an unsubscribed subscriber gets nothing', async (t) => {
  const clock = mockClock(t);
  const { hub, sub } = setup(0);
  const one = sub();
  const two = sub();
  hub.offerCommitted(rows(1, 2));
  hub.offerCommitted(rows(3));
  hub.offerCommitted(rows(4, 5));
  clock.flush();
  assert.deepEqual(one.writes, [frames(1, 2, 3, 4, 5)]);
  assert.deepEqual(two.writes, [frames(1, 2, 3, 4, 5)]);
  assert.equal(hub.subscriberCount(), 2);
  two.unsubscribe();
  assert.equal(hub.subscriberCount(), 1);
  hub.offerTailed(rows(6, 7));
  assert.equal(one.writes.length, 2);
  assert.equal(two.writes.length, 1);
});

void test('GET /api/obs/stream: any interleaving of commits and tail reads delivers every row once, in order (property)', async (t) => {
  const clock = mockClock(t);
  const op = fc.oneof(
    fc.record({ t: fc.constant('commit' as const), seqs: fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 5 }) }),
    fc.record({ t: fc.constant('tail' as const), upTo: fc.integer({ min: 0, max: 30 }) }),
    fc.constant({ t: 'flush' as const }),
  );
  await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 25 }), fc.integer({ min: 0, max: 3 }), async (ops, start) => {
    const { hub, sub } = setup(start);
    const { writes } = sub(start);
    const tailFrom = (upTo: number) => rows(...Array.from({ length: upTo }, (_, i) => i + 1));
    for (const o of ops) {
      if (o.t === 'commit') hub.offerCommitted(rows(...o.seqs));
      else if (o.t === 'tail') hub.offerTailed(tailFrom(o.upTo));
      else clock.flush();
    }
    clock.flush();
    hub.offerTailed(tailFrom(30));
    const got = seqsIn(writes.join(''));
    assert.deepEqual(got, Array.from({ length: 30 - start }, (_, i) => i + 1 + start));
  }), { numRuns: 200 });
});

void test('GET /api/obs/stream: a lone commit goes out on the next turn; a burst right after waits for the throttle', async (t) => {
  const clock = mockClock(t);
  const { hub, sub } = setup(0);
  const { writes } = sub();
  hub.offerCommitted(rows(1));
  assert.deepEqual(writes, [], 'nothing is written synchronously');
  clock.turn();
  assert.deepEqual(writes, [frames(1)], 'leading edge: no added latency for a lone event');
  hub.offerCommitted(rows(2));
  hub.offerCommitted(rows(3));
  clock.turn();
  assert.deepEqual(writes, [frames(1)], 'within the interval the next flush waits');
  clock.flush();
  assert.deepEqual(writes, [frames(1), frames(2, 3)], 'the burst arrives coalesced in one write');
});

void test('Observability: OTLP export listeners see every delivered row once, in order, with or without streams', async (t) => {
  const clock = mockClock(t);
  const { hub, sub } = setup(0);
  const seen: number[] = [];
  const errors: unknown[] = [];
  const stop = hub.listen((batch) => seen.push(...batch.map((r) => r.seq)));
  hub.listen(() => {
    throw new Error('listener bug');
  }, (err) => errors.push(err));
  hub.offerCommitted(rows(1, 2));
  clock.flush();
  assert.deepEqual(seen, [1, 2], 'no stream subscribed: the listener still sees the rows');
  const { writes } = sub(2);
  hub.offerCommitted(rows(4));
  hub.offerTailed(rows(3, 4));
  clock.flush();
  assert.deepEqual(seen, [1, 2, 3, 4], 'tailed and committed rows, each once');
  assert.deepEqual(writes, [frames(3, 4)], 'a throwing listener does not stop delivery to streams');
  assert.equal(errors.length, 2, 'its errors go to its onError, once per batch');
  stop();
  hub.offerTailed(rows(5));
  assert.deepEqual(seen, [1, 2, 3, 4], 'an unsubscribed listener sees nothing more');
});
