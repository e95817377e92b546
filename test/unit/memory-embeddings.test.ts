// Spec "Tools broker and MCP" (memory search: an embedding provider when one
// is configured, else FTS only, decided at boot), against a fake
// OpenAI-compatible embeddings server on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmbedder } from '../../shared/memory/index.ts';
import { fakeEmbeddings, memoryFixture } from '../fixtures/memory-helpers.ts';
import { deadline } from '../helpers/wait.ts';

const P = 'Tools broker and MCP → memory:';
const KEY = 'sk-test-embeddings-key-0123456789';

const config = (url: string | null, apiKey: string | null = KEY) => ({ embeddingsUrl: url, embeddingsModel: 'fake-embed-1', embeddingsApiKey: apiKey });

void test(`${P} without SVC_EMBEDDINGS_URL the store is full-text only`, async (t) => {
  const { store } = memoryFixture(t, { config: config(null) });
  assert.equal(store.mode, 'fts');
  assert.equal((await store.save({ content: 'apple' }, {})).embedded, false);
});

void test(`${P} with a provider, saves post { model, input } with the bearer key and store the vector`, async (t) => {
  const fake = await fakeEmbeddings(t);
  const { store, db } = memoryFixture(t, { config: config(fake.url) });
  assert.equal(store.mode, 'hybrid');
  const m = await store.save({ content: 'an apple a day', title: 'Health' }, { teamId: 'T1' });
  assert.equal(m.embedded, true);
  assert.equal(fake.requests.length, 1);
  assert.equal(fake.requests[0]?.headers.authorization, `Bearer ${KEY}`);
  assert.deepEqual(fake.requests[0]?.body, { model: 'fake-embed-1', input: 'Health\n\nan apple a day' });
  const v = db.prepare('SELECT model, dims, length(vector) AS bytes FROM memory_vectors').get();
  assert.deepEqual(v, { model: 'fake-embed-1', dims: 3, bytes: 12 });
  assert.equal(store.browse({}).memories[0]?.embedded, true);
});

void test(`${P} no key configured: no authorization header`, async (t) => {
  const fake = await fakeEmbeddings(t);
  await createEmbedder({ url: `${fake.url}/`, model: 'm' }).embed('x');
  assert.equal(fake.requests[0]?.headers.authorization, undefined);
});

void test(`${P} hybrid ranking puts the semantically closer row first when full-text ties`, async (t) => {
  const fake = await fakeEmbeddings(t);
  const hybrid = memoryFixture(t, { config: config(fake.url) });
  const plain = memoryFixture(t);
  for (const { store } of [hybrid, plain]) {
    // Same length, one shared word each: bm25 ties. The fruit row is older.
    await store.save({ content: 'report about banana' }, {});
    await store.save({ content: 'report about engine' }, {});
  }
  const ftsOnly = await plain.store.search('report fruit', {});
  assert.deepEqual(ftsOnly.map((h) => h.memory.content), ['report about engine', 'report about banana'], 'full-text alone: a tie, newest first');
  assert.equal(ftsOnly[0]?.score, ftsOnly[1]?.score);
  const blended = await hybrid.store.search('report fruit', {});
  assert.deepEqual(blended.map((h) => h.memory.content), ['report about banana', 'report about engine']);
  assert.deepEqual(blended.map((h) => h.match), ['both', 'both']);
  assert.ok((blended[0]?.score ?? 0) > (blended[1]?.score ?? 0));
});

void test(`${P} hybrid search finds a row by meaning alone, within scope only`, async (t) => {
  const fake = await fakeEmbeddings(t);
  const { store } = memoryFixture(t, { config: config(fake.url) });
  await store.save({ content: 'cherry pie recipe' }, { teamId: 'T1' });
  await store.save({ content: 'pear tart recipe' }, { teamId: 'T2' });
  await store.save({ content: 'truck maintenance' }, { teamId: 'T1' });
  const hits = await store.search('fruit', { teamId: 'T1' });
  assert.deepEqual(hits.map((h) => [h.memory.content, h.match]), [['cherry pie recipe', 'vector']], 'no shared word; the unrelated row stays below the similarity floor; T2 is out of scope');
});

void test(`${P} a failing provider still saves (full-text only), logs without the key, and search falls back to full-text`, async (t) => {
  const fake = await fakeEmbeddings(t);
  const { store, logs, db } = memoryFixture(t, { config: config(fake.url) });
  for (const mode of ['fail', 'garbage'] as const) {
    fake.mode = mode;
    const m = await store.save({ content: `kiwi smoothie ${mode}` }, {});
    assert.equal(m.embedded, false);
  }
  assert.equal(db.prepare('SELECT count(*) FROM memories').pluck().get(), 2);
  assert.equal(db.prepare('SELECT count(*) FROM memory_vectors').pluck().get(), 0);
  const hits = await store.search('kiwi', {});
  assert.equal(hits.length, 2, 'found by full-text while the provider is down');
  assert.ok(hits.every((h) => h.match === 'fts'));
  const warned = logs.filter((l) => l.includes('embeddings provider failed'));
  assert.ok(warned.length >= 3, 'each failed call is logged');
  assert.ok(warned.some((l) => l.includes('HTTP 500')));
  assert.ok(logs.every((l) => !l.includes(KEY)), 'the key never reaches a log line');
});

void test(`${P} a provider that never answers times out and the save still succeeds`, async (t) => {
  const fake = await fakeEmbeddings(t);
  fake.mode = 'hang';
  const embedder = createEmbedder({ url: fake.url, model: 'fake-embed-1', apiKey: KEY, timeoutMs: 150 });
  const { store, logs } = memoryFixture(t, { embedder });
  // The provider never answers: only the embedder's 150 ms timeout can end the save (the deadline just stops a hang).
  const m = await deadline(store.save({ content: 'plum jam' }, {}), { what: 'the save to give up on a provider that never answers' });
  assert.equal(m.embedded, false);
  assert.equal(fake.requests.length, 1, 'the provider was asked');
  assert.ok(logs.some((l) => l.includes('embeddings provider failed') && l.includes('timeout')), 'its timeout ended the wait');
  assert.equal((await store.search('plum', {})).length, 1);
});

void test(`${P} an unreachable provider URL degrades the same way`, async (t) => {
  const { store, logs } = memoryFixture(t, { config: config('http://127.0.0.1:9/v1') });
  assert.equal((await store.save({ content: 'fig' }, {})).embedded, false);
  assert.equal((await store.search('fig', {})).length, 1);
  assert.ok(logs.some((l) => l.includes('embeddings provider failed')));
});
