// Spec "Smaller resources" → "Graph layout": the read is always 200 (a
// stored layout, else `{ positions: {} }`, also on a database error); the
// write upserts on (name, gatewayUrl). Every 400 writes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../supervisor/runtime.ts';
import { buildTestApp } from '../helpers/app.ts';

const URL_A = 'ws://localhost:18789';
const URL_B = 'ws://10.0.0.5:18789';
const M = { body: 'JSON object body required', gatewayUrl: 'gatewayUrl required' };

interface Layout {
  name: string;
  gatewayUrl: string;
  positions: Record<string, { x: number; y: number }>;
  viewport?: { x: number; y: number; zoom: number };
  updatedAt: number;
}

const save = (app: FastifyInstance, payload: unknown) => app.inject({ method: 'POST', url: '/api/graph-layout', payload: payload as Record<string, unknown> });
const load = async (app: FastifyInstance, query: string) => {
  const res = await app.inject(`/api/graph-layout?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Layout | { positions: Record<string, never> }>();
};
const layoutRows = (runtime: Runtime) => runtime.deps.db.prepare('SELECT name, gateway_url AS gatewayUrl, layout FROM graph_layouts ORDER BY name, gateway_url').all();

void test('Smaller resources → Graph layout: a miss reads as { positions: {} }; POST stores it; GET by url and name reads it back', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await load(app, `url=${encodeURIComponent(URL_A)}`), { positions: {} });
  assert.deepEqual(await load(app, ''), { positions: {} }, 'no url is a miss, not a 400');

  const before = Date.now();
  const res = await save(app, { gatewayUrl: URL_A, positions: { main: { x: 10, y: -20.5 }, helper: { x: 0, y: 0, extra: 'dropped' } }, viewport: { x: 1, y: 2, zoom: 1.5 }, stray: true });
  assert.equal(res.statusCode, 200, res.body);
  const saved = res.json<{ ok: true; layout: Layout }>();
  assert.equal(saved.ok, true);
  assert.deepEqual({ ...saved.layout, updatedAt: 0 }, {
    name: 'default',
    gatewayUrl: URL_A,
    positions: { main: { x: 10, y: -20.5 }, helper: { x: 0, y: 0 } },
    viewport: { x: 1, y: 2, zoom: 1.5 },
    updatedAt: 0,
  });
  assert.ok(saved.layout.updatedAt >= before);
  assert.deepEqual(await load(app, `url=${encodeURIComponent(URL_A)}`), saved.layout, 'the default name');
  assert.deepEqual(await load(app, `url=${encodeURIComponent(URL_A)}&name=default`), saved.layout);
  assert.deepEqual(await load(app, `url=${encodeURIComponent(URL_A)}&name=other`), { positions: {} });
  assert.deepEqual(await load(app, `gatewayUrl=${encodeURIComponent(URL_A)}`), { positions: {} }, 'the query parameter is url, not gatewayUrl');
  assert.deepEqual(await load(app, `url=${encodeURIComponent(URL_B)}`), { positions: {} });
});

void test('Smaller resources → Graph layout: POST upserts keyed by (name, gatewayUrl)', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  assert.equal((await save(app, { gatewayUrl: URL_A, positions: { a: { x: 1, y: 1 } } })).statusCode, 200);
  assert.equal((await save(app, { gatewayUrl: URL_A, name: 'compact', positions: { a: { x: 2, y: 2 } } })).statusCode, 200);
  assert.equal((await save(app, { gatewayUrl: URL_B, positions: { a: { x: 3, y: 3 } } })).statusCode, 200);
  assert.equal((await save(app, { gatewayUrl: URL_A, name: '  ', positions: { b: { x: 4, y: 4 } } })).statusCode, 200, 'a blank name is the default');
  assert.equal(layoutRows(runtime).length, 3);
  assert.deepEqual((await load(app, `url=${encodeURIComponent(URL_A)}`)).positions, { b: { x: 4, y: 4 } }, 'replaced, not merged');
  assert.deepEqual((await load(app, `url=${encodeURIComponent(URL_A)}&name=compact`)).positions, { a: { x: 2, y: 2 } });
  assert.deepEqual((await load(app, `url=${encodeURIComponent(URL_B)}`)).positions, { a: { x: 3, y: 3 } });
});

void test('Smaller resources → Graph layout: GET is 200 { positions: {} } on an unreadable row and on a database error, and the error is logged', async (t) => {
  const { app, runtime, logs } = await buildTestApp(t);
  runtime.deps.db.prepare("INSERT INTO graph_layouts (name, gateway_url, layout, updated_at) VALUES ('default', ?, '{not json', 1)").run(URL_A);
  runtime.deps.db.prepare("INSERT INTO graph_layouts (name, gateway_url, layout, updated_at) VALUES ('default', ?, '{\"positions\":[1]}', 1)").run(URL_B);
  assert.deepEqual(await load(app, `url=${encodeURIComponent(URL_A)}`), { positions: {} });
  assert.deepEqual(await load(app, `url=${encodeURIComponent(URL_B)}`), { positions: {} });

  runtime.deps.db.exec('DROP TABLE graph_layouts');
  assert.deepEqual(await load(app, `url=${encodeURIComponent(URL_A)}`), { positions: {} });
  assert.ok(logs.some((l) => l.includes('graph layout read failed')), 'the database error is logged');
  const res = await save(app, { gatewayUrl: URL_A, positions: {} });
  assert.equal(res.statusCode, 500);
  assert.equal(typeof res.json<{ error: string }>().error, 'string');
});

void test('Smaller resources → Graph layout: POST 400s (non-object body, missing gatewayUrl, bad positions) write nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  for (const raw of [undefined, '', '[1]', '"x"', 'null', '{"gatewayUrl": ']) {
    const res = raw === undefined
      ? await app.inject({ method: 'POST', url: '/api/graph-layout' })
      : await app.inject({ method: 'POST', url: '/api/graph-layout', headers: { 'content-type': 'application/json' }, payload: raw });
    assert.equal(res.statusCode, 400, String(raw));
    assert.deepEqual(res.json(), { error: M.body });
  }
  for (const body of [{ positions: {} }, { gatewayUrl: '', positions: {} }, { gatewayUrl: '   ', positions: {} }, { gatewayUrl: 5, positions: {} }, { url: URL_A, positions: {} }]) {
    const res = await save(app, body);
    assert.equal(res.statusCode, 400, JSON.stringify(body));
    assert.deepEqual(res.json(), { error: M.gatewayUrl });
  }
  const tooMany = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`n${i}`, { x: i, y: i }]));
  for (const positions of [undefined, [], 'x', { a: { x: 1 } }, { a: { x: '1', y: 2 } }, { a: null }, tooMany]) {
    const res = await save(app, { gatewayUrl: URL_A, positions });
    assert.equal(res.statusCode, 400, JSON.stringify(positions)?.slice(0, 80));
    assert.match(res.json<{ error: string }>().error, /positions/);
  }
  const res = await save(app, { gatewayUrl: URL_A, positions: {}, viewport: { x: 0, y: 0, zoom: 0 } });
  assert.equal(res.statusCode, 400);
  assert.match(res.json<{ error: string }>().error, /viewport/);
  assert.deepEqual(layoutRows(runtime), []);
});
