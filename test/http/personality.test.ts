// Spec "Smaller resources" → "Personality": stored trait values and optional
// custom text per agent (nulls when none or corrupt); the write ensures a
// placeholder agent row in the same transaction. Every 400 writes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../supervisor/runtime.ts';
import { buildTestApp } from '../helpers/app.ts';

const M = { agentId: 'agentId required', body: 'JSON object body required', fields: 'agentId and values are required (values must be an object)' };

interface Personality {
  agentId: string;
  values: Record<string, unknown> | null;
  customText: string | null;
  updatedAt: number | null;
}

const save = (app: FastifyInstance, payload: unknown) => app.inject({ method: 'POST', url: '/api/personality', payload: payload as Record<string, unknown> });
const load = async (app: FastifyInstance, agentId: string) => {
  const res = await app.inject(`/api/personality?agentId=${encodeURIComponent(agentId)}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Personality>();
};
const count = (runtime: Runtime, table: string) => runtime.deps.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

void test('Smaller resources → Personality: nulls until saved; POST stores values and custom text, creates a placeholder agent row, and upserts', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  assert.deepEqual(await load(app, 'scout'), { agentId: 'scout', values: null, customText: null, updatedAt: null });
  assert.equal(runtime.deps.domain.agents.get('scout'), null, 'a read creates nothing');

  const before = Date.now();
  let res = await save(app, { agentId: 'scout', values: { warmth: 70, humor: 20, tone: 'dry' }, customText: 'Prefers short answers.' });
  assert.equal(res.statusCode, 200, res.body);
  const saved = res.json<Personality & { ok: boolean }>();
  assert.equal(saved.ok, true);
  assert.deepEqual({ ...saved, updatedAt: 0 }, { ok: true, agentId: 'scout', values: { warmth: 70, humor: 20, tone: 'dry' }, customText: 'Prefers short answers.', updatedAt: 0 });
  assert.ok((saved.updatedAt ?? 0) >= before);
  const { ok: _ok, ...view } = saved;
  assert.deepEqual(await load(app, 'scout'), view);

  const agent = runtime.deps.domain.agents.get('scout');
  assert.equal(agent?.name, 'scout', 'a placeholder agent row named after its id');

  // Upsert: replaced, not merged; blank custom text is stored as null; an existing agent row is left alone.
  runtime.deps.domain.agents.update('scout', { name: 'Scout' });
  res = await save(app, { agentId: 'scout', values: { warmth: 10 }, customText: '   ' });
  assert.equal(res.statusCode, 200);
  const again = await load(app, 'scout');
  assert.deepEqual(again.values, { warmth: 10 });
  assert.equal(again.customText, null);
  assert.equal(runtime.deps.db.prepare("SELECT custom_text FROM agent_personalities WHERE agent_id = 'scout'").pluck().get(), null);
  assert.equal(runtime.deps.domain.agents.get('scout')?.name, 'Scout');
  assert.equal(count(runtime, 'agent_personalities'), 1);

  res = await save(app, { agentId: 'scout', values: {} });
  assert.equal(res.statusCode, 200);
  assert.deepEqual((await load(app, 'scout')).customText, null, 'absent custom text is null');
});

void test('Smaller resources → Personality: stored JSON that is corrupt or not an object reads as nulls', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const ins = runtime.deps.db.prepare('INSERT INTO agent_personalities (agent_id, trait_values, custom_text, updated_at) VALUES (?, ?, ?, 1)');
  ins.run('broken', '{"warmth":', 'text');
  ins.run('array', '[1,2]', null);
  for (const id of ['broken', 'array']) assert.deepEqual(await load(app, id), { agentId: id, values: null, customText: null, updatedAt: null });
});

void test('Smaller resources → Personality: GET without agentId is 400; POST 400s (non-object body, missing agentId or values, out of bounds) write nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  for (const url of ['/api/personality', '/api/personality?agentId=', '/api/personality?agentId=%20']) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 400, url);
    assert.deepEqual(res.json(), { error: M.agentId });
  }
  const agentsBefore = count(runtime, 'agents');
  for (const raw of [undefined, '', '[1]', '"x"', 'null', '{"agentId": ']) {
    const res = raw === undefined
      ? await app.inject({ method: 'POST', url: '/api/personality' })
      : await app.inject({ method: 'POST', url: '/api/personality', headers: { 'content-type': 'application/json' }, payload: raw });
    assert.equal(res.statusCode, 400, String(raw));
    assert.deepEqual(res.json(), { error: M.body });
  }
  for (const body of [{}, { agentId: 'a' }, { values: {} }, { agentId: '  ', values: {} }, { agentId: 'a', values: [] }, { agentId: 'a', values: null }, { agentId: 'a', values: 'warm' }, { agentId: 3, values: {} }]) {
    const res = await save(app, body);
    assert.equal(res.statusCode, 400, JSON.stringify(body));
    assert.deepEqual(res.json(), { error: M.fields });
  }
  const tooManyTraits = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`t${i}`, i]));
  for (const body of [
    { agentId: 'a', values: tooManyTraits },
    { agentId: 'a', values: { note: 'x'.repeat(20_000) } },
    { agentId: 'a', values: {}, customText: 'x'.repeat(8001) },
    { agentId: 'a', values: {}, customText: 42 },
  ]) {
    const res = await save(app, body);
    assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 80));
    assert.match(res.json<{ error: string }>().error, /values|customText/);
  }
  assert.equal(count(runtime, 'agent_personalities'), 0);
  assert.equal(count(runtime, 'agents'), agentsBefore, 'no placeholder agent from a refused write');
});

void test('Smaller resources → Personality: a database failure on write is a 500 and leaves no placeholder agent behind', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.db.exec('DROP TABLE agent_personalities');
  const res = await save(app, { agentId: 'ghost', values: { a: 1 } });
  assert.equal(res.statusCode, 500);
  assert.equal(typeof res.json<{ error: string }>().error, 'string');
  assert.equal(runtime.deps.domain.agents.get('ghost'), null, 'the agent row rolled back with the failed write');
});
