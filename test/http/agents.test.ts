// Agents over HTTP (svc's design; shared/agents/): list, get, create, patch,
// delete, and the rows that team assignment creates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Agent } from '../../shared/agents/types.ts';
import { LEAD_KEYS } from '../../shared/setting-keys.ts';
import type { Runtime } from '../../supervisor/runtime.ts';
import { buildTestApp } from '../helpers/app.ts';
import { untilClockPasses } from '../helpers/wait.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function call(app: FastifyInstance, opts: InjectOptions) {
  const res = await app.inject(opts);
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

async function createAgent(app: FastifyInstance, payload: Record<string, unknown>): Promise<Agent> {
  const res = await call(app, { method: 'POST', url: '/api/agents', payload });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.agent as Agent;
}

const agentRows = (runtime: Runtime) => JSON.stringify(runtime.deps.db.prepare('SELECT * FROM agents ORDER BY id').all());

void test('Agents: POST /api/agents mints an id and fills the defaults', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const before = Date.now();
  const agent = await createAgent(app, { name: '  Ada  ' });
  assert.match(agent.id, V7);
  assert.deepEqual({ ...agent, createdAt: 0, updatedAt: 0 }, {
    id: agent.id, name: 'Ada', teamId: null, status: 'idle', gatewayId: agent.id, runtime: 'gateway', model: null,
    role: 'member', isArchived: 0, createdAt: 0, updatedAt: 0,
  });
  assert.equal(agent.gatewayId, agent.id, 'a gateway agent\'s gateway id is its own id');
  assert.ok(agent.createdAt >= before && agent.updatedAt === agent.createdAt);

  const got = await call(app, { method: 'GET', url: `/api/agents/${agent.id}` });
  assert.deepEqual([got.status, got.body], [200, { agent }]);
  assert.equal(runtime.deps.db.prepare('SELECT COUNT(*) FROM agents').pluck().get(), 1);

  const other = await createAgent(app, { name: 'Bob' });
  assert.notEqual(other.id, agent.id);
});

void test('Agents: a given id is honoured; a duplicate id is 409 and leaves the first row alone', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const agent = await createAgent(app, {
    id: 'coder-1', name: 'Coder', teamId: 'team-a', runtime: 'gateway', model: 'gpt-x', role: 'lead', gatewayId: 'gw-77',
  });
  assert.deepEqual(
    [agent.id, agent.name, agent.teamId, agent.runtime, agent.model, agent.role, agent.gatewayId, agent.status],
    ['coder-1', 'Coder', 'team-a', 'gateway', 'gpt-x', 'lead', 'gw-77', 'idle'],
  );
  const before = agentRows(runtime);
  const dup = await call(app, { method: 'POST', url: '/api/agents', payload: { id: 'coder-1', name: 'Impostor', runtime: 'native' } });
  assert.deepEqual([dup.status, dup.body], [409, { error: 'agent already exists' }]);
  assert.equal(agentRows(runtime), before);

  const odd = await createAgent(app, { id: 'agent:with.odd_chars-1', name: 'Odd' });
  assert.equal(odd.id, 'agent:with.odd_chars-1');
  assert.deepEqual((await call(app, { method: 'GET', url: '/api/agents/agent:with.odd_chars-1' })).body, { agent: odd });
});

void test('Agents: runtime is an open set; only gateway agents get a gateway id by default', async (t) => {
  const { app } = await buildTestApp(t);
  for (const runtime of ['cli-a', 'cli-b', 'native', 'my-runtime', 'x9.runner_2']) {
    const agent = await createAgent(app, { id: `a-${runtime}`, name: runtime, runtime });
    assert.equal(agent.runtime, runtime);
    assert.equal(agent.gatewayId, null, runtime);
  }
  const gw = await createAgent(app, { id: 'gw', name: 'gw', runtime: 'gateway' });
  assert.equal(gw.gatewayId, 'gw');
  const none = await createAgent(app, { id: 'gw-none', name: 'gw', gatewayId: null });
  assert.equal(none.gatewayId, null, 'an explicit null is honoured');
  const given = await createAgent(app, { id: 'cli-gw', name: 'c', runtime: 'cli-a', gatewayId: 'gw-1' });
  assert.equal(given.gatewayId, 'gw-1');
});

void test('Agents: bad ids, runtimes, names and bodies are 400 and write nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await createAgent(app, { id: 'keep', name: 'Keep' });
  const before = agentRows(runtime);
  const ID_ERROR = 'id: agent id must be 1-128 characters without whitespace, /, ?, # or %';
  const RUNTIME_ERROR = 'runtime must be a lowercase id such as gateway, native, cli-a';
  const cases: Array<[Record<string, unknown>, string | RegExp]> = [
    [{ id: 'has space', name: 'n' }, ID_ERROR],
    [{ id: 'a/b', name: 'n' }, ID_ERROR],
    [{ id: 'a?b', name: 'n' }, ID_ERROR],
    [{ id: 'a#b', name: 'n' }, ID_ERROR],
    [{ id: '100%', name: 'n' }, ID_ERROR],
    [{ id: '', name: 'n' }, ID_ERROR],
    [{ id: 'x'.repeat(129), name: 'n' }, ID_ERROR],
    [{ id: 42, name: 'n' }, /^id: /],
    [{ name: 'n', runtime: 'Gateway' }, RUNTIME_ERROR],
    [{ name: 'n', runtime: '' }, RUNTIME_ERROR],
    [{ name: 'n', runtime: '-lead' }, RUNTIME_ERROR],
    [{ name: 'n', runtime: 'has space' }, RUNTIME_ERROR],
    [{ name: 'n', runtime: 'r'.repeat(65) }, RUNTIME_ERROR],
    [{}, /^name: /],
    [{ name: '   ' }, 'name is required'],
    [{ name: 'n'.repeat(201) }, 'name must be at most 200 characters'],
    [{ name: 7 }, /^name: /],
    [{ name: 'n', role: 'boss' }, /^role: /],
    [{ name: 'n', teamId: '' }, /^teamId: /],
  ];
  for (const [payload, error] of cases) {
    const res = await call(app, { method: 'POST', url: '/api/agents', payload });
    assert.equal(res.status, 400, JSON.stringify(payload));
    if (typeof error === 'string') assert.deepEqual(res.body, { error }, JSON.stringify(payload));
    else assert.match(String(res.body.error), error, JSON.stringify(payload));
  }
  for (const payload of [undefined, '[]', '"agent"', '{oops']) {
    for (const [method, url] of [['POST', '/api/agents'], ['PATCH', '/api/agents/keep']] as const) {
      const res = await app.inject({
        method, url, ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload }),
      });
      assert.equal(res.statusCode, 400, `${method} ${String(payload)}`);
      assert.deepEqual(res.json(), { error: 'JSON object body required' });
    }
  }
  assert.equal(agentRows(runtime), before);
});

void test('Agents: GET /api/agents filters by team and runtime and hides archived agents unless asked', async (t) => {
  const { app } = await buildTestApp(t);
  await createAgent(app, { id: 'a1', name: 'A1', teamId: 'red' });
  await createAgent(app, { id: 'a2', name: 'A2', teamId: 'red', runtime: 'cli-a' });
  await createAgent(app, { id: 'a3', name: 'A3', teamId: 'blue', runtime: 'cli-a' });
  await createAgent(app, { id: 'a4', name: 'A4' });
  assert.equal((await call(app, { method: 'PATCH', url: '/api/agents/a2', payload: { isArchived: true } })).status, 200);

  const ids = async (qs: string) => {
    const res = await call(app, { method: 'GET', url: `/api/agents${qs}` });
    assert.equal(res.status, 200, qs);
    return (res.body.agents as Agent[]).map((a) => a.id);
  };
  assert.deepEqual(await ids(''), ['a1', 'a3', 'a4']);
  assert.deepEqual(await ids('?includeArchived=true'), ['a1', 'a2', 'a3', 'a4']);
  assert.deepEqual(await ids('?includeArchived=false'), ['a1', 'a3', 'a4']);
  assert.deepEqual(await ids('?teamId=red'), ['a1']);
  assert.deepEqual(await ids('?teamId=red&includeArchived=true'), ['a1', 'a2']);
  assert.deepEqual(await ids('?runtime=cli-a'), ['a3']);
  assert.deepEqual(await ids('?runtime=cli-a&includeArchived=true'), ['a2', 'a3']);
  assert.deepEqual(await ids('?runtime=gateway&teamId=blue'), []);
  assert.deepEqual(await ids('?teamId=nowhere'), []);

  for (const qs of ['?includeArchived=yes', '?includeArchived=1', '?teamId=', '?runtime=']) {
    const res = await call(app, { method: 'GET', url: `/api/agents${qs}` });
    assert.equal(res.status, 400, qs);
    assert.match(String(res.body.error), /^(includeArchived|teamId|runtime): /, qs);
  }
});

void test('Agents: GET /api/agents/:id is 404 for an unknown agent; an archived agent is still readable', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await call(app, { method: 'GET', url: '/api/agents/ghost' });
  assert.deepEqual([res.status, res.body], [404, { error: 'agent not found' }]);
  const blank = await call(app, { method: 'GET', url: '/api/agents/%20' });
  assert.deepEqual([blank.status, blank.body], [400, { error: 'agent id required' }]);
  const archived = await createAgent(app, { id: 'old', name: 'Old' });
  await call(app, { method: 'PATCH', url: '/api/agents/old', payload: { isArchived: 1 } });
  const got = await call(app, { method: 'GET', url: '/api/agents/old' });
  assert.equal(got.status, 200, 'an archived agent can still be read by id');
  assert.equal((got.body.agent as Agent).isArchived, 1);
  assert.equal((got.body.agent as Agent).name, archived.name);
});

void test('Agents: PATCH writes only the supplied fields; isArchived true/1 is 1, false/0 is 0', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const agent = await createAgent(app, { id: 'p1', name: 'Pat', teamId: 'red', runtime: 'cli-a', model: 'm1', role: 'member' });
  await untilClockPasses(agent.updatedAt);

  let res = await call(app, { method: 'PATCH', url: '/api/agents/p1', payload: { name: 'Patricia' } });
  assert.equal(res.status, 200);
  let after = res.body.agent as Agent;
  assert.equal(after.name, 'Patricia');
  assert.ok(after.updatedAt > agent.updatedAt, 'updatedAt moves');
  assert.deepEqual({ ...after, name: agent.name, updatedAt: agent.updatedAt }, agent, 'nothing else changed');

  res = await call(app, { method: 'PATCH', url: '/api/agents/p1', payload: { model: null, teamId: null, role: 'lead', runtime: 'native', gatewayId: 'gw-p1' } });
  after = res.body.agent as Agent;
  assert.deepEqual([after.name, after.model, after.teamId, after.role, after.runtime, after.gatewayId], ['Patricia', null, null, 'lead', 'native', 'gw-p1']);
  assert.equal(after.status, 'idle');
  assert.equal(after.createdAt, agent.createdAt);

  for (const [value, expected] of [[true, 1], [false, 0], [1, 1], [0, 0], [2, 1]] as const) {
    res = await call(app, { method: 'PATCH', url: '/api/agents/p1', payload: { isArchived: value } });
    assert.equal(res.status, 200, String(value));
    assert.equal((res.body.agent as Agent).isArchived, expected, String(value));
    assert.equal(runtime.deps.db.prepare('SELECT is_archived FROM agents WHERE id = ?').pluck().get('p1'), expected);
  }

  const empty = await call(app, { method: 'PATCH', url: '/api/agents/p1', payload: {} });
  assert.equal(empty.status, 200);
  assert.deepEqual({ ...(empty.body.agent as Agent), updatedAt: 0 }, { ...(res.body.agent as Agent), updatedAt: 0 });

  const before = agentRows(runtime);
  for (const [payload, error] of [
    [{ isArchived: 'yes' }, /^isArchived: /],
    [{ name: '' }, /^name is required$/],
    [{ runtime: 'CLI' }, /^runtime must be a lowercase id/],
    [{ role: 'owner' }, /^role: /],
  ] as const) {
    res = await call(app, { method: 'PATCH', url: '/api/agents/p1', payload });
    assert.equal(res.status, 400, JSON.stringify(payload));
    assert.match(String(res.body.error), error);
  }
  assert.equal(agentRows(runtime), before);

  res = await call(app, { method: 'PATCH', url: '/api/agents/ghost', payload: { name: 'x' } });
  assert.deepEqual([res.status, res.body], [404, { error: 'agent not found' }]);
  res = await call(app, { method: 'PATCH', url: '/api/agents/ghost', payload: {} });
  assert.deepEqual([res.status, res.body], [404, { error: 'agent not found' }]);
  assert.equal(agentRows(runtime), before);
});

void test('Agents: DELETE removes the row once and cleans the lead settings naming it', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const settings = runtime.deps.settingsTable;
  await createAgent(app, { id: 'd1', name: 'Doomed', role: 'lead' });
  await createAgent(app, { id: 'd2', name: 'Stays' });
  settings.set(LEAD_KEYS.displayName('d1'), 'Captain');
  settings.set(LEAD_KEYS.displayName('d2'), 'Mate');
  settings.set(LEAD_KEYS.override, 'd1');

  let res = await call(app, { method: 'DELETE', url: '/api/agents/d1' });
  assert.deepEqual([res.status, res.body], [200, { ok: true, deleted: true }]);
  assert.deepEqual((await call(app, { method: 'GET', url: '/api/agents/d1' })).status, 404);
  assert.equal(settings.get(LEAD_KEYS.displayName('d1')), null);
  assert.equal(settings.get(LEAD_KEYS.override), '', 'the override naming it is cleared');
  assert.equal(settings.get(LEAD_KEYS.displayName('d2')), 'Mate', 'other agents are untouched');
  assert.equal((await call(app, { method: 'GET', url: '/api/agents/d2' })).status, 200);

  res = await call(app, { method: 'DELETE', url: '/api/agents/d1' });
  assert.deepEqual([res.status, res.body], [200, { ok: true, deleted: false }]);

  settings.set(LEAD_KEYS.override, 'd2');
  await createAgent(app, { id: 'd3', name: 'Other' });
  res = await call(app, { method: 'DELETE', url: '/api/agents/d3' });
  assert.deepEqual(res.body, { ok: true, deleted: true });
  assert.equal(settings.get(LEAD_KEYS.override), 'd2', 'an override naming someone else stays');
});

void test('Agents: an agent made by POST /api/teams/:id/agents is idle with gatewayId equal to its id', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await call(app, { method: 'POST', url: '/api/teams', payload: { name: 'Red', icon: 'r', color: '#f00' } });
  assert.equal(team.status, 200, JSON.stringify(team.body));
  const teamId = (team.body.team as { id: string }).id;

  let res = await call(app, { method: 'POST', url: `/api/teams/${teamId}/agents`, payload: { agentId: 'fresh-1', agentName: 'Fresh' } });
  assert.deepEqual([res.status, res.body], [200, { ok: true }]);
  res = await call(app, { method: 'POST', url: `/api/teams/${teamId}/agents`, payload: { agentId: 'fresh-2' } });
  assert.equal(res.status, 200);

  const one = (await call(app, { method: 'GET', url: '/api/agents/fresh-1' })).body.agent as Agent;
  assert.deepEqual(
    [one.id, one.name, one.teamId, one.status, one.gatewayId, one.runtime, one.role, one.isArchived],
    ['fresh-1', 'Fresh', teamId, 'idle', 'fresh-1', 'gateway', 'member', 0],
  );
  const two = (await call(app, { method: 'GET', url: '/api/agents/fresh-2' })).body.agent as Agent;
  assert.deepEqual([two.name, two.status, two.gatewayId], ['fresh-2', 'idle', 'fresh-2']);
  const listed = (await call(app, { method: 'GET', url: `/api/agents?teamId=${teamId}` })).body.agents as Agent[];
  assert.deepEqual(listed.map((a) => a.id), ['fresh-1', 'fresh-2']);

  // Assigning an existing agent moves it without touching its other fields.
  const cli = await createAgent(app, { id: 'cli', name: 'Cli', runtime: 'cli-a' });
  res = await call(app, { method: 'POST', url: `/api/teams/${teamId}/agents`, payload: { agentId: 'cli', agentName: 'Renamed?' } });
  assert.equal(res.status, 200);
  const moved = (await call(app, { method: 'GET', url: '/api/agents/cli' })).body.agent as Agent;
  assert.deepEqual({ ...moved, updatedAt: 0 }, { ...cli, teamId, updatedAt: 0 });
});
