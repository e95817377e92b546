// shared/ids.ts: time-ordered ids (UUIDv7, RFC 9562) for event rows
// (spec "Orchestration event row": id is a string). Each test mints with a
// generator of its own: the process's one may be ahead of the clock after
// ids another test file minted at a future `now` (files share a process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createUuidv7, randomHex, UUID_RE, uuidv7 as processUuidv7 } from '../../shared/ids.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

function assertStrictlyIncreasing(ids: string[]) {
  for (let i = 1; i < ids.length; i++) {
    const prev = ids[i - 1] as string;
    const cur = ids[i] as string;
    assert.ok(prev < cur, `id ${i} not after id ${i - 1}: ${prev} >= ${cur}`);
  }
}

void test('Orchestration event row: uuidv7 has version 7, the RFC variant and the current time', () => {
  const uuidv7 = createUuidv7();
  const before = Date.now();
  const id = uuidv7();
  const after = Date.now();
  assert.match(id, V7);
  assert.match(id, UUID_RE);
  assert.equal(id, id.toLowerCase());
  const ms = msOf(id);
  assert.ok(ms >= before && ms <= after + 1, `${ms} not in [${before}, ${after}]`);
  assert.equal(UUID_RE.test('not-a-uuid'), false);
});

void test('Orchestration event row: 10k ids minted in a tight loop are distinct and strictly increasing', () => {
  // The process's own generator, whatever other files minted with it before.
  const ids = Array.from({ length: 10_000 }, () => processUuidv7());
  ids.forEach((id) => assert.match(id, V7));
  assertStrictlyIncreasing(ids);
  assert.equal(new Set(ids).size, ids.length);
});

void test('Orchestration event row: an earlier `now` (clock going back) still yields a later id', () => {
  const uuidv7 = createUuidv7();
  const a = uuidv7();
  const b = uuidv7(1_000);
  assert.match(b, V7);
  assert.ok(a < b, `${a} >= ${b}`);
  assert.ok(msOf(b) >= msOf(a));
});

void test('Orchestration event row: 10k ids with one fixed `now` stay ordered past the 12-bit counter', () => {
  const uuidv7 = createUuidv7();
  const now = Date.now() + 86_400_000; // later than anything minted so far
  const ids = Array.from({ length: 10_000 }, () => uuidv7(now));
  ids.forEach((id) => assert.match(id, V7));
  assertStrictlyIncreasing(ids);
  assert.equal(msOf(ids[0] as string), now, 'the first id carries the given time');
  // The counter holds at most 4096 ids per millisecond, so the time moves on a few ms at most.
  const last = msOf(ids[ids.length - 1] as string);
  assert.ok(last > now && last <= now + 5, `last ms ${last - now} past now`);
});

void test('Trace ids: randomHex gives n random bytes as hex, distinct across pool refills and between uuidv7 draws', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const trace = randomHex(16);
    const span = randomHex(8);
    assert.match(trace, /^[0-9a-f]{32}$/);
    assert.match(span, /^[0-9a-f]{16}$/);
    seen.add(trace).add(span).add(createUuidv7()());
  }
  assert.equal(seen.size, 6000, 'no value handed out twice');
  assert.throws(() => randomHex(1 << 20), RangeError);
});
