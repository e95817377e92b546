// Issue 23 item 5 over HTTP with no gateway (the real app, a real SQLite
// file): GET /api/workboard answers `enabled: false` and never an error, and
// repeated polls log nothing above debug; the writes refuse bad input with a
// clear 4xx before anything is asked of a gateway, and 409 while there is no
// Workboard. The real gateway's side is test/gateway/workboard.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';

const OFF = { enabled: false, cards: [], statuses: [] };

void test('Delegation (issue 23, item 5): no gateway: GET /api/workboard is 200 enabled:false (with or without ?teamId=), and polling it logs nothing above debug', async (t) => {
  const { app, logs } = await buildTestApp(t);
  for (const url of ['/api/workboard', '/api/workboard?teamId=some-team', '/api/workboard?teamId=', '/api/workboard?teamId=a&teamId=b']) {
    const r = await app.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 200, `${url}: ${r.body}`);
    assert.deepEqual(r.json(), OFF, url);
  }
  const before = logs.length;
  for (let i = 0; i < 5; i++) assert.equal((await app.inject({ method: 'GET', url: '/api/workboard' })).statusCode, 200);
  assert.deepEqual(logs.slice(before), [], 'no log line per poll');
});

void test('Delegation (issue 23, item 5): bad move input is 400 "status required" (no body, bad JSON, an array, a blank or non-string status); a good one is 409 "Workboard is not enabled on the gateway"; dispatch too', async (t) => {
  const { app } = await buildTestApp(t);
  const move = (payload?: string, contentType = 'application/json') =>
    app.inject({ method: 'POST', url: '/api/workboard/cards/c1/move', ...(payload === undefined ? {} : { payload, headers: { 'content-type': contentType } }) });
  for (const body of [undefined, '{', '[]', '{}', '{"status":""}', '{"status":"  "}', '{"status":3}', '{"status":null}']) {
    const r = await move(body);
    assert.deepEqual([r.statusCode, r.json()], [400, { error: 'status required' }], `body ${String(body)}`);
  }
  const ok = await move('{"status":"done"}');
  assert.deepEqual([ok.statusCode, ok.json()], [409, { error: 'Workboard is not enabled on the gateway' }]);
  for (const payload of [undefined, '{}']) {
    const d = await app.inject({ method: 'POST', url: '/api/workboard/cards/c1/dispatch', ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }) });
    assert.deepEqual([d.statusCode, d.json()], [409, { error: 'Workboard is not enabled on the gateway' }]);
  }
  const blank = await app.inject({ method: 'POST', url: '/api/workboard/cards/%20/dispatch' });
  assert.deepEqual([blank.statusCode, blank.json()], [400, { error: 'card id required' }]);
  assert.deepEqual((await app.inject({ method: 'GET', url: '/api/workboard' })).json(), OFF, 'nothing changed');
});
