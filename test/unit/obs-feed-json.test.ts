// Spec "Observability" → GET /api/obs/events and /traces/:traceId: the
// bodies are built by SQLite as JSON text, in parts (shared/obs/feed.ts and
// trace.ts readParts). Joined, they must be exactly what serialising the rows
// gives, byte for byte, for every filter combination, both orders, any stored
// text, and rows stored under other masking rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { createFeed, type FeedQuery } from '../../shared/obs/feed.ts';
import { PART_CHARS } from '../../shared/obs/json-parts.ts';
import { createTraceReader } from '../../shared/obs/trace.ts';
import { MASK_RULES_VERSION } from '../../shared/redact.ts';
import { buildTestApp } from '../helpers/app.ts';

const KINDS = ['tool_call', 'tool_result', 'error', 'cost'] as const;
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const id = fc.constantFrom('a', 'b', 'é-ü', 'x"y', 'back\\slash');

const text = fc.string({ unit: 'binary', maxLength: 12 });
const eventArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  teamId: maybe(id), agentId: maybe(id), traceId: maybe(id),
  data: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)), { maxKeys: 3 }),
  staleRules: fc.boolean(),
});
type GenEvent = typeof eventArb extends fc.Arbitrary<infer E> ? E : never;

/** Appends through the event log, or (staleRules) as another writer under older rules would have stored it. */
function writer(deps: Awaited<ReturnType<typeof buildTestApp>>['runtime']['deps']): (events: GenEvent[]) => void {
  const stale = deps.db.prepare(
    `INSERT INTO events (id, ts, kind, team_id, agent_id, trace_id, data, created_at, mask_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let n = 0;
  return (events) => {
    for (const e of events) {
      if (e.staleRules) {
        // Unmasked text (kept as plain JSON so both paths agree on it).
        stale.run(`s-${++n}`, Date.now(), e.kind, e.teamId ?? null, e.agentId ?? null, e.traceId ?? null, JSON.stringify({ apiKey: 'k', ...e.data }), Date.now(), MASK_RULES_VERSION === 1 ? 2 : 1);
      } else {
        deps.eventLog.append({ kind: e.kind, teamId: e.teamId ?? null, agentId: e.agentId ?? null, traceId: e.traceId ?? null, data: e.data });
      }
    }
  };
}

void test('Observability: the feed body built by SQLite equals the serialised rows for any rows and filters (property)', async (t) => {
  const { runtime } = await buildTestApp(t);
  const feed = createFeed(runtime.deps.db);
  const write = writer(runtime.deps);
  const query = fc.record({
    teamId: maybe(id), agentId: maybe(id), traceId: maybe(id),
    kinds: maybe(fc.uniqueArray(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 3 })),
    since: maybe(fc.integer({ min: 0, max: 2_000_000_000_000 })),
    afterSeq: maybe(fc.integer({ min: 0, max: 400 })),
    limit: fc.integer({ min: 1, max: 50 }),
    order: fc.constantFrom('asc' as const, 'desc' as const),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(eventArb, { maxLength: 6 }), query, async (events, q) => {
      write(events);
      const fq: FeedQuery = { ...q, kinds: q.kinds ?? [] };
      const body = feed.readParts(fq).join('');
      assert.equal(body, JSON.stringify({ events: feed.read(fq) }));
      assert.ok(!body.includes('"apiKey":"k"'), 'a stale row is masked again');
    }),
    { numRuns: 200 },
  );
});

void test('Observability: the trace body built by SQLite equals the serialised trace, metrics included, for any rows (property)', async (t) => {
  const { runtime } = await buildTestApp(t);
  const traces = createTraceReader(runtime.deps.db);
  const write = writer(runtime.deps);
  await fc.assert(
    fc.asyncProperty(fc.array(eventArb, { maxLength: 6 }), id, async (events, traceId) => {
      write(events);
      const body = traces.readParts(traceId).join('');
      assert.equal(body, JSON.stringify(traces.read(traceId)));
      assert.ok(!body.includes('"apiKey":"k"'), 'a stale row is masked again');
    }),
    { numRuns: 200 },
  );
});

void test('Observability: a large feed or trace body comes in parts of about PART_CHARS characters, never one long string', async (t) => {
  const { runtime } = await buildTestApp(t);
  const { db, eventLog } = runtime.deps;
  for (let i = 0; i < 600; i++) eventLog.append({ kind: 'tool_call', teamId: 'big', traceId: 'big', data: { note: 'x'.repeat(300 + (i % 7)), i } });
  const feedParts = createFeed(db).readParts({ teamId: 'big', limit: 600, order: 'desc', kinds: [] });
  const traceParts = createTraceReader(db).readParts('big');
  for (const parts of [feedParts, traceParts]) {
    const body = parts.join('');
    assert.ok(body.length > 4 * PART_CHARS, `the body is large (${body.length} characters)`);
    assert.ok(parts.length > 4, `it is split (${parts.length} parts)`);
    // A part is at most PART_CHARS plus the one row that crossed the line.
    for (const p of parts) assert.ok(p.length < PART_CHARS + 1000, `part of ${p.length} characters`);
  }
  assert.equal(feedParts.join(''), JSON.stringify({ events: createFeed(db).read({ teamId: 'big', limit: 600, order: 'desc', kinds: [] }) }));
  assert.equal(JSON.parse(traceParts.join('')).events.length, 600);
});

void test('Observability: GET /api/obs/events answers the SQLite-built body as JSON', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.eventLog.append({ kind: 'tool_call', teamId: 'tm', data: { note: 'line\nbreak "quoted" ✓' } });
  const res = await app.inject('/api/obs/events?teamId=tm');
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const { events } = res.json<{ events: Array<{ data: string; teamId: string }> }>();
  assert.equal(events.length, 1);
  assert.equal(events[0]?.teamId, 'tm');
  assert.deepEqual(JSON.parse(events[0]?.data ?? ''), { note: 'line\nbreak "quoted" ✓' });
  assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body), 'Content-Length counts UTF-8 bytes');
  const empty = await app.inject('/api/obs/events?teamId=nobody');
  assert.deepEqual(empty.json(), { events: [] });
  const head = await app.inject({ method: 'HEAD', url: '/api/obs/events?teamId=tm' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
});

void test('Observability: GET /api/obs/traces/:traceId answers the SQLite-built body as JSON with its byte length', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.eventLog.append({ kind: 'tool_call', traceId: 'tr-✓', data: { note: 'ünïcödé ✓' } });
  runtime.deps.eventLog.append({ kind: 'cost', traceId: 'tr-✓', data: { model: 'unknown-model', inputTokens: 1_000_000, outputTokens: 0 } });
  const res = await app.inject(`/api/obs/traces/${encodeURIComponent('tr-✓')}`);
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
  const trace = res.json<{ traceId: string; events: unknown[]; metrics: { totalCostUsd: number; eventCounts: Record<string, number> } }>();
  assert.equal(trace.traceId, 'tr-✓');
  assert.equal(trace.events.length, 2);
  assert.equal(trace.metrics.totalCostUsd, 3);
  assert.deepEqual(trace.metrics.eventCounts, { tool_call: 1, cost: 1 });
});
