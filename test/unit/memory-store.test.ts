// Spec "Tools broker and MCP" (memory_save, memory_search, memory_browse over
// SQLite FTS5) and "Limits": the store itself, full-text only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { buildFtsQuery, queryTerms } from '../../shared/memory/index.ts';
import { memoryFixture } from '../fixtures/memory-helpers.ts';

const P = 'Tools broker and MCP → memory:';

void test(`${P} save stores a tagged row, indexed for full-text search`, async (t) => {
  const { store, db } = memoryFixture(t);
  assert.equal(store.mode, 'fts');
  const m = await store.save({ content: 'The deploy key lives in the vault', title: 'Deploy', kind: 'fact', tags: ['ops', 'ops', 'vault'] }, { teamId: 'T1', agentId: 'A1' });
  assert.match(m.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual([m.teamId, m.agentId, m.tenantId, m.kind, m.title, m.tags, m.embedded], ['T1', 'A1', null, 'fact', 'Deploy', ['ops', 'vault'], false]);
  const row = db.prepare('SELECT id, team_id, agent_id, tenant_id, kind, title, tags, content FROM memories').get();
  assert.deepEqual(row, { id: m.id, team_id: 'T1', agent_id: 'A1', tenant_id: null, kind: 'fact', title: 'Deploy', tags: '["ops","vault"]', content: 'The deploy key lives in the vault' });
  assert.equal(db.prepare(`SELECT count(*) FROM memories_fts WHERE memories_fts MATCH '"vault"'`).pluck().get(), 1);
});

void test(`${P} save refuses empty or oversized input and writes nothing`, async (t) => {
  const { store, db } = memoryFixture(t);
  await assert.rejects(store.save({ content: '   ' }, {}));
  await assert.rejects(store.save({ content: 'x'.repeat(16_001) }, {}));
  await assert.rejects(store.save({ content: 'ok', title: 't'.repeat(201) }, {}));
  await assert.rejects(store.save({ content: 'ok', tags: ['two words'] }, {}));
  await assert.rejects(store.save({ content: 'ok', tags: Array.from({ length: 17 }, (_, i) => `t${i}`) }, {}));
  assert.equal(db.prepare('SELECT count(*) FROM memories').pluck().get(), 0);
  const nul = await store.save({ content: '\u0000starts with NUL' }, {});
  assert.equal(nul.content, 'starts with NUL', 'NUL is dropped, not a CHECK failure');
  assert.equal((await store.save({ content: 'x'.repeat(16_000) }, {})).content.length, 16_000, 'exactly the bound is kept');
});

void test(`${P} search ranks by bm25 with stemming, snippets the match, and honours the limit`, async (t) => {
  const { store } = memoryFixture(t);
  await store.save({ content: 'Lunch menu for friday: soup' }, {});
  const weak = await store.save({ content: 'We talked about the connection once, among many other long and winding topics of the week' }, {});
  const strong = await store.save({ content: 'Connecting: connect with the connect script', title: 'Connect runbook' }, {});
  const hits = await store.search('connected', {});
  assert.deepEqual(hits.map((h) => h.memory.id), [strong.id, weak.id], 'porter stemming: connected finds connection, connecting and connect; the stronger match first');
  assert.ok((hits[0]?.score ?? 0) >= (hits[1]?.score ?? 0));
  assert.match(hits[0]?.snippet ?? '', /\[Connect/i);
  assert.equal(hits.every((h) => h.match === 'fts'), true);
  assert.equal((await store.search('connect', {}, 1)).length, 1);
  assert.equal((await store.search('connect', {}, 0)).length, 1, 'limit clamps to at least 1');
  assert.deepEqual(await store.search('', {}), []);
  assert.deepEqual(await store.search('  ?!  ', {}), [], 'no words: no hits');
});

void test(`${P} query text cannot inject FTS5 syntax`, async (t) => {
  const { store } = memoryFixture(t);
  await store.save({ content: 'alpha beta' }, {});
  await store.save({ content: 'NOT a drill, title: gamma' }, {});
  assert.equal(buildFtsQuery('alpha NOT beta'), '"alpha" OR "not" OR "beta"');
  assert.equal(buildFtsQuery('title:gamma*'), '"title" OR "gamma"');
  assert.equal(buildFtsQuery('"unbalanced ( NEAR(x y'), '"unbalanced" OR "near" OR "x" OR "y"');
  assert.equal(buildFtsQuery(':: )) "" ^*'), null);
  // NOT is a word here, not an operator: both rows come back.
  assert.equal((await store.search('alpha NOT beta', {})).length, 2);
  assert.equal((await store.search('content:alpha', {})).length, 1, 'a column filter is two plain words');
  assert.ok(queryTerms('a '.repeat(100) + Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')).length <= 32);
  assert.equal(queryTerms('x'.repeat(500))[0]?.length, 64);
});

void test(`${P} any string as a query never throws and never fails the search (property)`, async (t) => {
  const { store, logs } = memoryFixture(t);
  await store.save({ content: 'seed row with words: naïve café 東京 emoji 🚀 and "quotes"' }, {});
  const query = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 80 }),
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.array(fc.constantFrom('"', '*', '^', '(', ')', ':', 'AND', 'OR', 'NOT', 'NEAR', '+', '-', '{', '}', 'title', ' ', 'naïve', '\u0000', '\ud800'), { maxLength: 20 }).map((a) => a.join('')),
  );
  fc.assert(
    fc.property(query, (q) => {
      const hits = store.searchText(q, {});
      assert.ok(Array.isArray(hits));
      const expr = buildFtsQuery(q);
      if (expr !== null) assert.doesNotThrow(() => store.searchText(q, {}));
    }),
    { numRuns: 500 },
  );
  assert.deepEqual(logs.filter((l) => l.includes('query failed')), [], 'the sanitiser, not the catch-all, kept every query valid');
  assert.equal((await store.search('NAIVE', {})).length, 1, 'diacritics and case fold');
  assert.equal((await store.search('東京', {})).length, 1);
});

void test(`${P} browse pages newest first with a cursor, within scope`, async (t) => {
  const { store } = memoryFixture(t);
  const saved = [];
  for (let i = 0; i < 7; i += 1) saved.push(await store.save({ content: `note ${i}` }, { teamId: i % 2 === 0 ? 'T1' : 'T2' }));
  const p1 = store.browse({}, { limit: 3 });
  assert.deepEqual(p1.memories.map((m) => m.content), ['note 6', 'note 5', 'note 4']);
  assert.notEqual(p1.nextCursor, null);
  const p2 = store.browse({}, { before: p1.nextCursor ?? undefined, limit: 3 });
  assert.deepEqual(p2.memories.map((m) => m.content), ['note 3', 'note 2', 'note 1']);
  const p3 = store.browse({}, { before: p2.nextCursor ?? undefined, limit: 3 });
  assert.deepEqual(p3.memories.map((m) => m.content), ['note 0']);
  assert.equal(p3.nextCursor, null, 'the last page says so');
  assert.deepEqual(store.browse({ teamId: 'T2' }, { limit: 50 }).memories.map((m) => m.content), ['note 5', 'note 3', 'note 1']);
  assert.equal(store.browse({}, { limit: 1000 }).memories.length, 7, 'limit clamps to 50, which holds all 7');
  assert.equal(store.browse({}, { limit: -5 }).memories.length, 1);
});

void test(`${P} search and browse see only rows whose tags match every scoped key`, async (t) => {
  const { store } = memoryFixture(t);
  await store.save({ content: 'shared secret plan' }, {});
  await store.save({ content: 'secret plan of team one' }, { teamId: 'T1' });
  await store.save({ content: 'secret plan of agent a in team one' }, { teamId: 'T1', agentId: 'A' });
  await store.save({ content: 'secret plan of team two' }, { teamId: 'T2', tenantId: 'X' });
  const count = async (scope: Parameters<typeof store.search>[1]) => (await store.search('secret plan', scope, 50)).length;
  assert.equal(await count({}), 4, 'no scope: everything');
  assert.equal(await count({ teamId: 'T1' }), 2);
  assert.equal(await count({ teamId: 'T1', agentId: 'A' }), 1);
  assert.equal(await count({ agentId: 'A' }), 1);
  assert.equal(await count({ tenantId: 'X' }), 1);
  assert.equal(await count({ teamId: 'T1', tenantId: 'X' }), 0);
  assert.equal(await count({ teamId: "T1' OR 1=1 --" }), 0, 'scope values are bound parameters');
});

void test(`${P} forTeam gives the team's newest memories, one bounded line each, for the activity summary`, async (t) => {
  const { store } = memoryFixture(t);
  assert.equal(store.forTeam('T1'), null);
  await store.save({ content: 'Other team' }, { teamId: 'T2' });
  await store.save({ content: 'Use   pnpm,\nnot npm', title: 'Tooling', kind: 'decision' }, { teamId: 'T1', agentId: 'A' });
  await store.save({ content: 'y'.repeat(500) }, { teamId: 'T1' });
  const digest = store.forTeam('T1') ?? '';
  const lines = digest.split('\n');
  assert.equal(lines.length, 2);
  assert.equal(lines[0], `- ${'y'.repeat(157)}…`, 'newest first, clipped to 160 characters');
  assert.equal(lines[1], '- [decision] Tooling: Use pnpm, not npm');
  for (let i = 0; i < 20; i += 1) await store.save({ content: `fact ${i} `.repeat(20) }, { teamId: 'T1' });
  assert.ok((store.forTeam('T1') ?? '').length <= 600);
});
