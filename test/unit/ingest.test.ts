// shared/events/ingest.ts normalizeIngest: spec "POST /api/obs/ingest",
// "Events" (client-ingested kinds) and "Limits" (Ingest); and the ingest
// writer's idempotency keys (issue 15 #17) on a real temporary database.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog, type EventLog } from '../../shared/events/event-log.ts';
import { INGEST_FUTURE_MS, INGEST_MAX_EVENTS, INGEST_PAST_MS, createIngestWriter, normalizeIngest } from '../../shared/events/ingest.ts';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../shared/events/ingest-keys.ts';
import { createLogger } from '../../shared/log.ts';

const NOW = 1_700_000_000_000;
const DAY = 24 * 60 * 60_000;

void test('POST /api/obs/ingest: a full row is kept with its fields; absent ids become null', () => {
  const out = normalizeIngest({
    events: [{
      kind: 'tool_call', ts: NOW - 1000, teamId: 't', taskId: 'k', agentId: 'a', runtime: 'cli-a',
      traceId: 'tr', spanId: 'sp', parentSpanId: 'pp', correlationId: 'c', tenantId: 'tn', data: { tool: 'x', n: 1 },
      extra: 'dropped',
    }, { kind: 'error' }],
  }, NOW);
  assert.deepEqual(out, [{
    kind: 'tool_call', ts: NOW - 1000, teamId: 't', taskId: 'k', agentId: 'a', runtime: 'cli-a',
    traceId: 'tr', spanId: 'sp', parentSpanId: 'pp', correlationId: 'c', tenantId: 'tn', data: { tool: 'x', n: 1 },
  }, {
    kind: 'error', ts: NOW, teamId: null, taskId: null, agentId: null, runtime: 'gateway',
    traceId: null, spanId: null, parentSpanId: null, correlationId: null, tenantId: null, data: {},
  }]);
});

void test('Events: only tool_call, tool_result and error are ingested; board and other kinds are dropped', () => {
  const kinds = ['tool_call', 'task_created', 'tool_result', 'task_claimed', 'status_changed', 'comment_added',
    'dep_linked', 'error', 'cost', 'span_start', 'team_chat_post', 'TOOL_CALL', '', null, 5];
  const out = normalizeIngest({ events: [...kinds.map((kind) => ({ kind })), { teamId: 'no-kind' }] }, NOW);
  assert.deepEqual(out.map((e) => e.kind), ['tool_call', 'tool_result', 'error']);
});

void test('Limits: at most 200 events per call; the rest is sliced off', () => {
  const events = Array.from({ length: 250 }, (_, i) => ({ kind: 'tool_result', taskId: `t${i}` }));
  const out = normalizeIngest({ events }, NOW);
  assert.equal(INGEST_MAX_EVENTS, 200);
  assert.equal(out.length, 200);
  assert.equal(out[0]?.taskId, 't0');
  assert.equal(out[199]?.taskId, 't199');
  // Slicing happens before filtering: skipped rows still count toward the 200.
  const mixed = [...Array.from({ length: 200 }, () => ({ kind: 'task_created' })), { kind: 'error' }];
  assert.deepEqual(normalizeIngest({ events: mixed }, NOW), []);
});

void test('POST /api/obs/ingest: malformed rows are skipped without failing the batch', () => {
  const events = [
    null, 'tool_call', 42, [], { kind: 'tool_call', teamId: 7 }, { kind: 'tool_call', agentId: {} },
    { kind: 'tool_result', runtime: ['x'] }, { kind: 'error', taskId: 'ok' },
  ];
  const out = normalizeIngest({ events }, NOW);
  assert.deepEqual(out.map((e) => [e.kind, e.taskId]), [['error', 'ok']]);
});

void test('POST /api/obs/ingest: a wrong-typed ts is replaced by server time, the row kept', () => {
  const out = normalizeIngest({ events: [{ kind: 'error', ts: 'yesterday' }, { kind: 'error', ts: null }] }, NOW);
  assert.deepEqual(out.map((e) => e.ts), [NOW, NOW]);
});

void test('Limits: a ts outside [now - 24 h, now + 60 s] is replaced by server time; the edges are inside', () => {
  assert.equal(INGEST_PAST_MS, DAY);
  assert.equal(INGEST_FUTURE_MS, 60_000);
  const cases: Array<[number, number]> = [
    [NOW - DAY, NOW - DAY], [NOW + 60_000, NOW + 60_000], [NOW - 5, NOW - 5],
    [NOW - DAY - 1, NOW], [NOW + 60_001, NOW], [0, NOW], [-1, NOW], [NOW * 10, NOW],
  ];
  const out = normalizeIngest({ events: cases.map(([ts]) => ({ kind: 'tool_call', ts })) }, NOW);
  assert.deepEqual(out.map((e) => e.ts), cases.map(([, expected]) => expected));
});

void test('POST /api/obs/ingest: runtime defaults to gateway for a missing or null value', () => {
  const out = normalizeIngest({ events: [{ kind: 'error' }, { kind: 'error', runtime: null }, { kind: 'error', runtime: 'cli-b' }] }, NOW);
  assert.deepEqual(out.map((e) => e.runtime), ['gateway', 'gateway', 'cli-b']);
});

void test('POST /api/obs/ingest: non-object data becomes {}; an object is kept', () => {
  const datas = ['text', 3, true, null, [1, 2], { a: 1 }];
  const out = normalizeIngest({ events: datas.map((data) => ({ kind: 'tool_result', data })) }, NOW);
  assert.deepEqual(out.map((e) => e.data), [{}, {}, {}, {}, {}, { a: 1 }]);
  assert.deepEqual(normalizeIngest({ events: [{ kind: 'tool_result' }] }, NOW)[0]?.data, {});
});

void test('POST /api/obs/ingest: a non-array events or a non-object body yields no events', () => {
  for (const body of [null, undefined, 'x', 5, true, [{ kind: 'error' }], {}, { events: null }, { events: { 0: { kind: 'error' } } },
    { events: 'tool_call' }]) {
    assert.deepEqual(normalizeIngest(body, NOW), [], JSON.stringify(body));
  }
});

void test('POST /api/obs/ingest: any body yields at most 200 whitelisted rows in the ts band (property)', () => {
  const row = fc.oneof(
    fc.anything(),
    fc.record({
      kind: fc.constantFrom('tool_call', 'tool_result', 'error', 'task_created', 'cost'),
      ts: fc.oneof(fc.double(), fc.integer({ min: NOW - 2 * DAY, max: NOW + 120_000 })),
      runtime: fc.oneof(fc.string(), fc.constant(null)),
      data: fc.anything(),
    }, { requiredKeys: ['kind'] }),
  );
  const body = fc.oneof(fc.anything(), fc.record({ events: fc.array(row, { maxLength: 260 }) }));
  fc.assert(fc.property(body, (b) => {
    const out = normalizeIngest(b, NOW);
    assert.ok(out.length <= 200);
    for (const e of out) {
      assert.ok(['tool_call', 'tool_result', 'error'].includes(e.kind), e.kind);
      assert.ok(typeof e.ts === 'number' && e.ts >= NOW - DAY && e.ts <= NOW + 60_000, String(e.ts));
      assert.ok(e.data !== null && typeof e.data === 'object' && !Array.isArray(e.data));
      assert.equal(typeof e.runtime, 'string');
    }
  }), { numRuns: 300 });
});

function writerDb(t: TestContext, wrap: (log: EventLog) => Pick<EventLog, 'appendMany'> = (log) => log) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ingest-'));
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const tx = createTx(db, (err) => assert.fail(String(err)));
  const eventLog = createEventLog({ db, tx, logger: createLogger({ level: 'silent' }) });
  const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
  return { writer: createIngestWriter({ db, tx, eventLog: wrap(eventLog) }), count };
}

const body = (events: unknown[]) => Buffer.from(JSON.stringify({ events }));

void test('POST /api/obs/ingest (issue 15 #17): a key is remembered 24 hours, then the same batch is a new one', (t) => {
  const { writer, count } = writerDb(t);
  const b = body([{ kind: 'tool_call' }]);
  assert.equal(count('events'), 0);
  assert.deepEqual(Object.keys(writer.appendBody(b, NOW, 'k1')), ['rows']);
  assert.deepEqual(writer.appendBody(b, NOW + IDEMPOTENCY_KEY_TTL_MS, 'k1'), { replayed: { count: 1 } });
  assert.equal(count('events'), 1);
  const later = writer.appendBody(b, NOW + IDEMPOTENCY_KEY_TTL_MS + 1, 'k1');
  assert.ok('rows' in later && later.rows.length === 1, 'past 24 h the key is forgotten');
  assert.equal(count('events'), 2);
  // Keys older than 24 h are pruned on the next keyed write.
  writer.appendBody(b, NOW + 3 * IDEMPOTENCY_KEY_TTL_MS, 'k2');
  assert.equal(count('ingest_keys'), 1);
});

void test('POST /api/obs/ingest (issue 15 #17): the key is written in the batch\'s transaction: a failed write records neither', (t) => {
  let fail = true;
  const { writer, count } = writerDb(t, (log) => ({
    appendMany: (inputs, opts) => {
      const rows = log.appendMany(inputs, opts);
      if (fail) throw new Error('disk full');
      return rows;
    },
  }));
  const b = body([{ kind: 'tool_call' }, { kind: 'error' }]);
  assert.throws(() => writer.appendBody(b, NOW, 'k1'), /disk full/);
  assert.equal(count('events'), 0);
  assert.equal(count('ingest_keys'), 0);
  fail = false;
  const retry = writer.appendBody(b, NOW, 'k1');
  assert.ok('rows' in retry && retry.rows.length === 2, 'the retry is written, not answered from a key');
  assert.equal(count('ingest_keys'), 1);
});

void test('Limits (issue 15 #15): a batch refused for a row over 64 KB records no key and no row', (t) => {
  const { writer, count } = writerDb(t);
  assert.deepEqual(writer.appendBody(body([{ kind: 'tool_call', data: { s: 'x'.repeat(70_000) } }]), NOW, 'k1'), { tooLarge: true });
  assert.equal(count('ingest_keys'), 0);
  assert.equal(count('events'), 0);
});
