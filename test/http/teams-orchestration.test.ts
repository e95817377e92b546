// Beyond the spec: GET/PUT /api/teams/:id/orchestration, the switch behind
// the `team-server-orchestrated:<id>` setting (spec "Team-scoped settings
// entries": only the literal `false` closes the chat gate). The team
// settings page uses it; the chat routes obey what it writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';

void test('Teams (issue 18, orchestration switch): GET reads the gate, PUT writes true/false, chat obeys; bad bodies and unknown teams change nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const settings = runtime.deps.settingsTable;
  const created = await app.inject({ method: 'POST', url: '/api/teams', payload: { name: 'Ops', icon: '🛠', color: '#123456' } });
  const teamId = (created.json() as { team: { id: string } }).team.id;
  const url = `/api/teams/${teamId}/orchestration`;

  const initial = await app.inject({ method: 'GET', url });
  assert.deepEqual([initial.statusCode, initial.json()], [200, { teamId, serverOrchestrated: true }], 'absent means on');

  const off = await app.inject({ method: 'PUT', url, payload: { serverOrchestrated: false } });
  assert.deepEqual([off.statusCode, off.json()], [200, { teamId, serverOrchestrated: false }]);
  assert.equal(settings.get(`team-server-orchestrated:${teamId}`), 'false');
  const chat = await app.inject({ method: 'POST', url: `/api/teams/${teamId}/chat`, payload: { message: 'hello' } });
  assert.deepEqual([chat.statusCode, chat.json()], [404, { error: 'team is not server-orchestrated' }]);

  for (const payload of [{}, { serverOrchestrated: 'false' }, { serverOrchestrated: 0 }, [true]]) {
    const bad = await app.inject({ method: 'PUT', url, payload });
    assert.deepEqual([bad.statusCode, bad.json()], [400, { error: 'serverOrchestrated (boolean) is required' }], JSON.stringify(payload));
  }
  const notJson = await app.inject({ method: 'PUT', url, headers: { 'content-type': 'application/json' }, payload: '{nope' });
  assert.deepEqual([notJson.statusCode, notJson.json()], [400, { error: 'serverOrchestrated (boolean) is required' }]);
  assert.equal(settings.get(`team-server-orchestrated:${teamId}`), 'false', 'bad input changed nothing');

  const on = await app.inject({ method: 'PUT', url, payload: { serverOrchestrated: true } });
  assert.deepEqual([on.statusCode, on.json()], [200, { teamId, serverOrchestrated: true }]);
  assert.equal(settings.get(`team-server-orchestrated:${teamId}`), 'true');

  const missing = '01900000-0000-7000-8000-000000000000';
  for (const method of ['GET', 'PUT'] as const) {
    const r = await app.inject({ method, url: `/api/teams/${missing}/orchestration`, ...(method === 'PUT' ? { payload: { serverOrchestrated: false } } : {}) });
    assert.deepEqual([r.statusCode, r.json()], [404, { error: 'team not found' }], method);
  }
  assert.equal(settings.get(`team-server-orchestrated:${missing}`), null, 'no setting for a team that does not exist');
});
