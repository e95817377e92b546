// Beyond the spec: GET/POST /api/gateway/agents, the gateway's own agents
// for the dashboard. Without a gateway connection the list says so (200,
// reachable: false) and a create is a 502 that says what to do; bad bodies
// are 400 before anything is sent. (With the real gateway:
// test/browser/team-chat.browser.test.ts, the newcomer journey.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/server.ts';

void test('Gateway agents (issue 18): no gateway connection is an answer for the list and a 502 for a create; bad names are 400', async (t) => {
  const { app } = await buildTestApp(t);
  const list = await app.inject({ method: 'GET', url: '/api/gateway/agents' });
  assert.deepEqual([list.statusCode, list.json()], [200, { agents: [], defaultId: null, reachable: false }]);

  for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(81) }, { name: 7 }]) {
    const bad = await app.inject({ method: 'POST', url: '/api/gateway/agents', payload });
    assert.deepEqual([bad.statusCode, bad.json()], [400, { error: 'name is required (1 to 80 characters)' }], JSON.stringify(payload));
  }
  const create = await app.inject({ method: 'POST', url: '/api/gateway/agents', payload: { name: 'Researcher' } });
  assert.deepEqual([create.statusCode, create.json()], [502, { error: 'gateway not reachable: start it on the Gateway page' }]);

  // A gateway URL where nothing listens: the list waits for a connection, then says it is not reachable.
  const closed = await freePort();
  const saved = await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: `ws://127.0.0.1:${closed}` } });
  assert.equal(saved.statusCode, 200);
  const again = await app.inject({ method: 'GET', url: '/api/gateway/agents' });
  assert.deepEqual([again.statusCode, again.json()], [200, { agents: [], defaultId: null, reachable: false }]);
});
