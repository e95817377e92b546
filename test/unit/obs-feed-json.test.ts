// Spec "Observability" → GET /api/obs/events: the feed's body is built by
// SQLite as JSON text (shared/obs/feed.ts readJson). It must be exactly what
// serialising the rows gives, byte for byte, for every filter combination,
// both orders, any stored text, and rows stored under other masking rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createFeed, type FeedQuery } from '../../shared/obs/feed.ts';
import { MASK_RULES_VERSION } from '../../shared/redact.ts';
import { buildTestApp } from '../helpers/app.ts';

const KINDS = ['tool_call', 'tool_result', 'error', 'cost'] as const;
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const id = fc.constantFrom('a', 'b', 'é-ü', 'x"y', 'back\\slash');

void test('Observability: the feed body built by SQLite equals the serialised rows for any rows and filters (property)', async (t) => {
  const { runtime } = await buildTestApp(t);
  const { db, eventLog } = runtime.deps;
  const feed = createFeed(db);
  const stale = db.prepare(
    `INSERT INTO events (id, ts, kind, team_id, agent_id, trace_id, data, created_at, mask_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let n = 0;
  const text = fc.string({ unit: 'binary', maxLength: 12 });
  const event = fc.record({
    kind: fc.constantFrom(...KINDS),
    teamId: maybe(id), agentId: maybe(id), traceId: maybe(id),
    data: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)), { maxKeys: 3 }),
    staleRules: fc.boolean(),
  });
  const query = fc.record({
    teamId: maybe(id), agentId: maybe(id), traceId: maybe(id),
    kinds: maybe(fc.uniqueArray(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 3 })),
    since: maybe(fc.integer({ min: 0, max: 2_000_000_000_000 })),
    afterSeq: maybe(fc.integer({ min: 0, max: 400 })),
    limit: fc.integer({ min: 1, max: 50 }),
    order: fc.constantFrom('asc' as const, 'desc' as const),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(event, { maxLength: 6 }), query, async (events, q) => {
      for (const e of events) {
        if (e.staleRules) {
          // Another writer, older rules, unmasked text (kept as plain JSON so both paths agree on it).
          stale.run(`s-${++n}`, Date.now(), e.kind, e.teamId ?? null, e.agentId ?? null, e.traceId ?? null, JSON.stringify({ apiKey: 'k', ...e.data }), Date.now(), MASK_RULES_VERSION === 1 ? 2 : 1);
        } else {
          eventLog.append({ kind: e.kind, teamId: e.teamId ?? null, agentId: e.agentId ?? null, traceId: e.traceId ?? null, data: e.data });
        }
      }
      const fq: FeedQuery = { ...q, kinds: q.kinds ?? [] };
      const body = feed.readJson(fq).toString('utf8');
      assert.equal(body, JSON.stringify({ events: feed.read(fq) }));
      assert.ok(!body.includes('"apiKey":"k"'), 'a stale row is masked again');
    }),
    { numRuns: 200 },
  );
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
  const empty = await app.inject('/api/obs/events?teamId=nobody');
  assert.deepEqual(empty.json(), { events: [] });
});
