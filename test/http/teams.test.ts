// Spec "Team", "Team-scoped settings entries" and "### Teams": list, create,
// patch, delete, assignment and unassignment, plus the list's cache (ETag and
// invalidation by writes from another connection).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { openDatabase } from '../../shared/db/open.ts';
import { buildTestApp } from '../helpers/app.ts';
import { untilClockPasses } from '../helpers/wait.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TEAM_FIELDS = [
  'agentCount', 'color', 'colorCollectionId', 'createdAt', 'icon', 'id', 'isArchived', 'leaderAgentId', 'name', 'templateId', 'updatedAt',
];

interface Team {
  id: string;
  name: string;
  icon: string;
  color: string;
  colorCollectionId: string | null;
  templateId: string | null;
  leaderAgentId: string | null;
  isArchived: number;
  createdAt: number;
  updatedAt: number;
  agentCount: number;
}

interface TeamList {
  teams: Team[];
  assignments: Array<{ agentId: string; teamId: string }>;
}

async function createTeam(app: FastifyInstance, body: Record<string, unknown> = {}): Promise<Team> {
  const res = await app.inject({ method: 'POST', url: '/api/teams', payload: { name: 'Alpha', icon: '🚀', color: '#ff0000', ...body } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ team: Team }>().team;
}

async function listTeams(app: FastifyInstance, query = ''): Promise<TeamList> {
  const res = await app.inject(`/api/teams${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<TeamList>();
}

async function assign(app: FastifyInstance, teamId: string, body: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: `/api/teams/${teamId}/agents`, payload: body });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { ok: true });
}

async function getAgent(app: FastifyInstance, id: string) {
  const res = await app.inject(`/api/agents/${encodeURIComponent(id)}`);
  return res.statusCode === 200 ? res.json<{ agent: Record<string, unknown> }>().agent : null;
}

/** Sends a raw body (string) with a JSON content type, or nothing at all. */
function rawJson(app: FastifyInstance, method: 'POST' | 'PATCH' | 'PUT', url: string, payload: string | undefined) {
  return payload === undefined
    ? app.inject({ method, url })
    : app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload });
}

const BAD_BODIES: Array<string | undefined> = [undefined, '', '[1,2]', '"text"', 'null', '42', 'true', '{"name": '];

// ---------------------------------------------------------------- list

void test('Teams: GET /api/teams on an empty database gives no teams and no assignments', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject('/api/teams');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { teams: [], assignments: [] });
});

void test('Teams: GET /api/teams hides archived teams unless includeArchived=true', async (t) => {
  const { app } = await buildTestApp(t);
  const live = await createTeam(app, { name: 'Live' });
  const archived = await createTeam(app, { name: 'Old' });
  const res = await app.inject({ method: 'PATCH', url: `/api/teams/${archived.id}`, payload: { isArchived: 1 } });
  assert.equal(res.statusCode, 200);

  const ids = (l: TeamList) => l.teams.map((x) => x.id).sort();
  assert.deepEqual(ids(await listTeams(app)), [live.id], 'default is includeArchived=false');
  assert.deepEqual(ids(await listTeams(app, '?includeArchived=false')), [live.id]);
  assert.deepEqual(ids(await listTeams(app, '?includeArchived=1')), [live.id], 'only the string true includes archived');
  assert.deepEqual(ids(await listTeams(app, '?includeArchived=true')), [live.id, archived.id].sort());
  const all = await listTeams(app, '?includeArchived=true');
  assert.equal(all.teams.find((x) => x.id === archived.id)?.isArchived, 1);
  assert.equal(all.teams.find((x) => x.id === live.id)?.isArchived, 0);
});

void test('Teams: GET /api/teams reports agentCount per team and lists every agent with a team id as an assignment', async (t) => {
  const { app } = await buildTestApp(t);
  const a = await createTeam(app, { name: 'A' });
  const b = await createTeam(app, { name: 'B' });
  const empty = await createTeam(app, { name: 'Empty' });
  await assign(app, a.id, { agentId: 'a1' });
  await assign(app, a.id, { agentId: 'a2' });
  await assign(app, b.id, { agentId: 'b1' });
  // An agent with no team is not an assignment.
  const free = await app.inject({ method: 'POST', url: '/api/agents', payload: { id: 'free', name: 'Free' } });
  assert.equal(free.statusCode, 200, free.body);

  const list = await listTeams(app);
  const count = (id: string) => list.teams.find((x) => x.id === id)?.agentCount;
  assert.equal(count(a.id), 2);
  assert.equal(count(b.id), 1);
  assert.equal(count(empty.id), 0);
  const key = (x: { agentId: string; teamId: string }) => `${x.agentId}@${x.teamId}`;
  assert.deepEqual(list.assignments.map(key).sort(), [`a1@${a.id}`, `a2@${a.id}`, `b1@${b.id}`].sort());
  for (const asg of list.assignments) assert.deepEqual(Object.keys(asg).sort(), ['agentId', 'teamId']);
  for (const team of list.teams) assert.deepEqual(Object.keys(team).sort(), TEAM_FIELDS);
});

// ---------------------------------------------------------------- create

void test('Teams: POST /api/teams answers 200 with the team: minted UUID, isArchived 0, agentCount 0, omitted optionals null', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const before = Date.now();
  const res = await app.inject({ method: 'POST', url: '/api/teams', payload: { name: 'Alpha', icon: '🚀', color: '#ff0000' } });
  assert.equal(res.statusCode, 200, 'status is 200, not 201');
  const { team } = res.json<{ team: Team }>();
  assert.deepEqual(Object.keys(res.json()), ['team']);
  assert.deepEqual(Object.keys(team).sort(), TEAM_FIELDS);
  assert.match(team.id, UUID);
  assert.equal(team.name, 'Alpha');
  assert.equal(team.icon, '🚀');
  assert.equal(team.color, '#ff0000');
  assert.equal(team.colorCollectionId, null);
  assert.equal(team.templateId, null);
  assert.equal(team.leaderAgentId, null);
  assert.equal(team.isArchived, 0);
  assert.equal(team.agentCount, 0);
  assert.ok(team.createdAt >= before && team.createdAt <= Date.now(), 'createdAt is now in epoch ms');
  assert.equal(team.updatedAt, team.createdAt);
  assert.deepEqual((await listTeams(app)).teams, [team], 'the list shows the same team');
  assert.equal(runtime.deps.settingsTable.get(`team-server-orchestrated:${team.id}`), null, 'serverOrchestrated absent writes nothing');
});

void test('Teams: POST /api/teams stores colorCollectionId, templateId and leaderAgentId when supplied', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app, { colorCollectionId: 'warm', templateId: 'tpl-1', leaderAgentId: 'lead-1' });
  assert.equal(team.colorCollectionId, 'warm');
  assert.equal(team.templateId, 'tpl-1');
  assert.equal(team.leaderAgentId, 'lead-1');
  const listed = (await listTeams(app)).teams[0];
  assert.deepEqual(listed, team);
  const nulls = await createTeam(app, { colorCollectionId: null, templateId: null, leaderAgentId: null });
  assert.equal(nulls.colorCollectionId, null);
  assert.equal(nulls.templateId, null);
  assert.equal(nulls.leaderAgentId, null);
});

void test('Teams: POST /api/teams honours a UUID-shaped id and replaces any other id with a minted UUID', async (t) => {
  const { app } = await buildTestApp(t);
  const given = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
  assert.equal((await createTeam(app, { id: given })).id, given);
  const upper = 'A987FBC9-4BED-3078-CF07-9141BA07C9F3';
  assert.equal((await createTeam(app, { id: upper })).id, upper, 'UUID shape is case-insensitive');

  for (const id of ['team-1', '', '3f2504e0-4f89-11d3-9a0c-0305e82c330', `${given}x`, 42, null, { x: 1 }]) {
    const team = await createTeam(app, { id });
    assert.match(team.id, UUID, `id ${JSON.stringify(id)} replaced by a UUID`);
    assert.notEqual(team.id, id);
  }
  const ids = (await listTeams(app)).teams.map((x) => x.id);
  assert.equal(new Set(ids).size, ids.length, 'every minted id is distinct');
  assert.equal(ids.length, 9);
});

void test('Teams: POST /api/teams with serverOrchestrated true writes team-server-orchestrated:<id> = true; false or absent writes nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const on = await createTeam(app, { serverOrchestrated: true });
  const off = await createTeam(app, { serverOrchestrated: false });
  const absent = await createTeam(app);
  const get = (id: string) => runtime.deps.settingsTable.get(`team-server-orchestrated:${id}`);
  assert.equal(get(on.id), 'true');
  assert.equal(get(off.id), null);
  assert.equal(get(absent.id), null);
  assert.equal(
    runtime.deps.db.prepare("SELECT COUNT(*) FROM settings WHERE key LIKE 'team-server-orchestrated:%'").pluck().get(),
    1,
    'exactly one setting written',
  );
});

void test('Teams: POST /api/teams without a string name, icon or color answers 400 and creates nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const good = { name: 'Alpha', icon: '🚀', color: '#ff0000' };
  const cases: Array<Record<string, unknown>> = [];
  for (const field of ['name', 'icon', 'color'] as const) {
    const { [field]: _omit, ...missing } = good;
    cases.push(missing);
    for (const wrong of [null, 7, true, ['x'], { v: 'x' }, '']) cases.push({ ...good, [field]: wrong });
  }
  cases.push({}, { serverOrchestrated: true });
  for (const payload of cases) {
    const res = await app.inject({ method: 'POST', url: '/api/teams', payload });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.deepEqual(res.json(), { error: 'name, icon, and color are required' }, JSON.stringify(payload));
  }
  assert.deepEqual(await listTeams(app, '?includeArchived=true'), { teams: [], assignments: [] });
  assert.equal(runtime.deps.db.prepare('SELECT COUNT(*) FROM settings').pluck().get(), 0, 'no setting written');
});

void test('Teams: POST /api/teams with a missing, non-object or malformed body answers 400 invalid JSON', async (t) => {
  const { app } = await buildTestApp(t);
  for (const payload of BAD_BODIES) {
    const res = await rawJson(app, 'POST', '/api/teams', payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'invalid JSON' }, String(payload));
  }
  assert.deepEqual((await listTeams(app, '?includeArchived=true')).teams, []);
});

void test('Teams: POST /api/teams with an existing UUID id does not overwrite that team', async (t) => {
  const { app } = await buildTestApp(t);
  const first = await createTeam(app, { id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301', name: 'First' });
  const res = await app.inject({ method: 'POST', url: '/api/teams', payload: { id: first.id, name: 'Second', icon: 'x', color: '#000' } });
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `refused (${res.statusCode})`);
  assert.equal(typeof res.json<{ error: unknown }>().error, 'string');
  assert.deepEqual((await listTeams(app)).teams, [first]);
});

// ---------------------------------------------------------------- patch

void test('Teams: PATCH /api/teams/:id writes only the supplied fields and always refreshes updatedAt', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app, { colorCollectionId: 'warm', templateId: 'tpl', leaderAgentId: 'lead-1' });
  // Before each patch the clock moves past the last stamp, so a refreshed updatedAt is strictly later.
  await untilClockPasses(team.updatedAt);

  let res = await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}`, payload: { name: 'Renamed' } });
  assert.equal(res.statusCode, 200);
  const renamed = res.json<{ team: Team }>().team;
  assert.deepEqual(Object.keys(res.json()), ['team']);
  assert.ok(renamed.updatedAt > team.updatedAt, 'updatedAt refreshed');
  assert.deepEqual(renamed, { ...team, name: 'Renamed', updatedAt: renamed.updatedAt });

  await untilClockPasses(renamed.updatedAt);
  res = await app.inject({
    method: 'PATCH',
    url: `/api/teams/${team.id}`,
    payload: { icon: '🐙', color: '#00ff00', colorCollectionId: null, leaderAgentId: 'lead-2', templateId: 'ignored', createdAt: 1, agentCount: 99 },
  });
  assert.equal(res.statusCode, 200);
  const second = res.json<{ team: Team }>().team;
  assert.ok(second.updatedAt > renamed.updatedAt);
  assert.deepEqual(second, {
    ...renamed,
    icon: '🐙',
    color: '#00ff00',
    colorCollectionId: null,
    leaderAgentId: 'lead-2',
    updatedAt: second.updatedAt,
  }, 'templateId, createdAt and agentCount are not patchable');

  await untilClockPasses(second.updatedAt);
  res = await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}`, payload: { leaderAgentId: null, colorCollectionId: 'cool' } });
  const third = res.json<{ team: Team }>().team;
  assert.equal(third.leaderAgentId, null);
  assert.equal(third.colorCollectionId, 'cool');

  await untilClockPasses(third.updatedAt);
  res = await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}`, payload: {} });
  assert.equal(res.statusCode, 200);
  const touched = res.json<{ team: Team }>().team;
  assert.ok(touched.updatedAt > third.updatedAt, 'an empty patch still refreshes updatedAt');
  assert.deepEqual(touched, { ...third, updatedAt: touched.updatedAt });
  assert.deepEqual((await listTeams(app)).teams, [touched], 'the list reads back the stored row');
});

void test('Teams: PATCH /api/teams/:id isArchived: truthy becomes 1, falsy becomes 0', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  const patch = async (isArchived: unknown) => {
    const res = await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}`, payload: { isArchived } });
    assert.equal(res.statusCode, 200, `${JSON.stringify(isArchived)}: ${res.body}`);
    return res.json<{ team: Team }>().team.isArchived;
  };
  assert.equal(await patch(1), 1);
  assert.equal(await patch(0), 0);
  assert.equal(await patch(7), 1);
  assert.equal(await patch(-1), 1);
  assert.equal(await patch(0.5), 1);
  assert.equal(await patch(true), 1);
  assert.equal(await patch(false), 0);
  assert.equal(await patch(2), 1);
  assert.equal((await listTeams(app)).teams.length, 0, 'archived: gone from the default list');
  assert.equal((await listTeams(app, '?includeArchived=true')).teams[0]?.isArchived, 1);
});

void test('Teams: PATCH /api/teams/:id answers with the recomputed agentCount', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  await assign(app, team.id, { agentId: 'a1' });
  await assign(app, team.id, { agentId: 'a2' });
  let res = await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}`, payload: { name: 'Two' } });
  assert.equal(res.json<{ team: Team }>().team.agentCount, 2);
  await app.inject({ method: 'DELETE', url: `/api/teams/${team.id}/agents/a1` });
  res = await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}`, payload: { name: 'One' } });
  assert.equal(res.json<{ team: Team }>().team.agentCount, 1);
});

void test('Teams: PATCH /api/teams/:id on an unknown team answers 404 team not found and creates nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ method: 'PATCH', url: '/api/teams/3f2504e0-4f89-11d3-9a0c-0305e82c3301', payload: { name: 'X' } });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json(), { error: 'team not found' });
  const empty = await app.inject({ method: 'PATCH', url: '/api/teams/nope', payload: {} });
  assert.equal(empty.statusCode, 404);
  assert.deepEqual(empty.json(), { error: 'team not found' });
  assert.deepEqual((await listTeams(app, '?includeArchived=true')).teams, []);
});

void test('Teams: PATCH /api/teams/:id with a missing, non-object or malformed body answers 400 invalid JSON and changes nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  for (const payload of BAD_BODIES) {
    const res = await rawJson(app, 'PATCH', `/api/teams/${team.id}`, payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'invalid JSON' }, String(payload));
  }
  assert.deepEqual((await listTeams(app)).teams, [team]);
});

void test('Teams: PATCH /api/teams/:id with a wrong-typed field answers 400 naming the field and writes nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  const cases: Array<[string, unknown]> = [
    ['name', 42],
    ['name', null],
    ['icon', false],
    ['color', ['#fff']],
    ['colorCollectionId', 5],
    ['isArchived', 'yes'],
    ['isArchived', null],
    ['leaderAgentId', { id: 'x' }],
  ];
  for (const [field, value] of cases) {
    // A valid field alongside: it must not be written either.
    const res = await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}`, payload: { color: '#123456', [field]: value } });
    assert.equal(res.statusCode, 400, `${field}=${JSON.stringify(value)}`);
    const { error } = res.json<{ error: string }>();
    assert.ok(error.includes(field), `"${error}" names ${field}`);
  }
  assert.deepEqual((await listTeams(app)).teams, [team], 'nothing written, updatedAt unchanged');
});

void test('Teams: PATCH /api/teams/ with an empty or blank id answers 400 team id required', async (t) => {
  const { app } = await buildTestApp(t);
  for (const url of ['/api/teams/', '/api/teams/%20%20']) {
    const res = await app.inject({ method: 'PATCH', url, payload: { name: 'x' } });
    assert.equal(res.statusCode, 400, url);
    assert.deepEqual(res.json(), { error: 'team id required' });
  }
});

// ---------------------------------------------------------------- delete

void test('Teams: DELETE /api/teams/:id orphans members, removes its settings and brief, leaves other teams untouched', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const settings = runtime.deps.settingsTable;
  const doomed = await createTeam(app, { name: 'Doomed', serverOrchestrated: true });
  const kept = await createTeam(app, { name: 'Kept', serverOrchestrated: true });
  for (const team of [doomed, kept]) {
    await assign(app, team.id, { agentId: `${team.name}-1`, agentName: `${team.name} one` });
    await assign(app, team.id, { agentId: `${team.name}-2` });
    assert.equal((await app.inject({ method: 'PUT', url: `/api/team-rules/${team.id}`, payload: { text: `${team.name} rules` } })).statusCode, 200);
    assert.equal((await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}/onboarding`, payload: { agentsIntroduced: true } })).statusCode, 200);
    assert.equal((await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team.id}`, payload: { content: `${team.name} brief` } })).statusCode, 200);
  }
  const briefRow = (id: string) => runtime.deps.db.prepare('SELECT content FROM lead_team_briefs WHERE team_id = ?').pluck().get(id);
  assert.equal(briefRow(doomed.id), 'Doomed brief');

  const res = await app.inject({ method: 'DELETE', url: `/api/teams/${doomed.id}` });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true });

  const all = await listTeams(app, '?includeArchived=true');
  assert.deepEqual(all.teams.map((x) => x.id), [kept.id]);
  for (const id of ['Doomed-1', 'Doomed-2']) {
    const agent = await getAgent(app, id);
    assert.ok(agent, `${id} still exists`);
    assert.equal(agent.teamId, null, `${id} orphaned`);
  }
  assert.equal((await getAgent(app, 'Doomed-1'))?.name, 'Doomed one');
  assert.equal(settings.get(`team-rules:${doomed.id}`), null);
  assert.equal(settings.get(`team-onboarding:${doomed.id}`), null);
  assert.equal(settings.get(`team-server-orchestrated:${doomed.id}`), null);
  assert.equal(briefRow(doomed.id), undefined, 'the brief cascades');
  const brief = await app.inject(`/api/lead/team-briefs/${doomed.id}`);
  assert.deepEqual(brief.json(), { content: null, updatedAt: null });

  // The other team keeps everything.
  assert.equal(all.teams[0]?.agentCount, 2);
  assert.deepEqual(all.assignments.map((x) => x.agentId).sort(), ['Kept-1', 'Kept-2']);
  assert.equal(settings.get(`team-rules:${kept.id}`), 'Kept rules');
  assert.equal(JSON.parse(settings.get(`team-onboarding:${kept.id}`) ?? 'null')?.agentsIntroduced, true);
  assert.equal(settings.get(`team-server-orchestrated:${kept.id}`), 'true');
  assert.equal(briefRow(kept.id), 'Kept brief');
});

void test('Teams: DELETE /api/teams/:id of an unknown team still answers 200 { ok: true } and changes nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  await assign(app, team.id, { agentId: 'a1' });
  const res = await app.inject({ method: 'DELETE', url: '/api/teams/no-such-team' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true });
  const again = await app.inject({ method: 'DELETE', url: `/api/teams/${team.id}` });
  assert.deepEqual(again.json(), { ok: true });
  const twice = await app.inject({ method: 'DELETE', url: `/api/teams/${team.id}` });
  assert.equal(twice.statusCode, 200);
  assert.deepEqual(twice.json(), { ok: true }, 'deleting twice is fine');
  assert.equal((await getAgent(app, 'a1'))?.teamId, null);
});

void test('Teams: DELETE /api/teams/ with an empty id answers 400 team id required', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  const res = await app.inject({ method: 'DELETE', url: '/api/teams/' });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'team id required' });
  assert.deepEqual((await listTeams(app)).teams, [team]);
});

// ---------------------------------------------------------------- assign

void test('Teams: POST /api/teams/:id/agents creates a missing agent: status idle, gateway id = agent id, name = agentName or agentId', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  await assign(app, team.id, { agentId: 'named', agentName: 'Nora' });
  await assign(app, team.id, { agentId: 'unnamed' });

  const named = await getAgent(app, 'named');
  assert.ok(named);
  assert.equal(named.teamId, team.id);
  assert.equal(named.status, 'idle');
  assert.equal(named.gatewayId, 'named');
  assert.equal(named.name, 'Nora');
  // An empty or wrong-typed agentName falls back to the agent id.
  await assign(app, team.id, { agentId: 'empty-name', agentName: '' });
  await assign(app, team.id, { agentId: 'number-name', agentName: 5 });
  assert.equal((await getAgent(app, 'empty-name'))?.name, 'empty-name');
  assert.equal((await getAgent(app, 'number-name'))?.name, 'number-name');
  const unnamed = await getAgent(app, 'unnamed');
  assert.equal(unnamed?.name, 'unnamed');
  assert.equal(unnamed?.gatewayId, 'unnamed');
  assert.equal(unnamed?.status, 'idle');
  // The stored rows, not only the route's view of them.
  const row = runtime.deps.db.prepare('SELECT name, team_id AS teamId, status, gateway_id AS gatewayId FROM agents WHERE id = ?').get('named');
  assert.deepEqual(row, { name: 'Nora', teamId: team.id, status: 'idle', gatewayId: 'named' });

  const list = await listTeams(app);
  assert.equal(list.teams[0]?.agentCount, 4);
  assert.deepEqual(
    list.assignments.map((x) => x.agentId).sort(),
    ['empty-name', 'named', 'number-name', 'unnamed'],
  );
  assert.ok(list.assignments.every((x) => x.teamId === team.id));
});

void test('Teams: POST /api/teams/:id/agents on an existing agent changes only its team id and updatedAt', async (t) => {
  const { app } = await buildTestApp(t);
  const a = await createTeam(app, { name: 'A' });
  const b = await createTeam(app, { name: 'B' });
  await assign(app, a.id, { agentId: 'x', agentName: 'Xavier' });
  const before = await getAgent(app, 'x');
  assert.ok(before);
  await app.inject({ method: 'PATCH', url: '/api/agents/x', payload: { model: 'm-1' } });
  const patched = await getAgent(app, 'x');
  await untilClockPasses(patched?.updatedAt as number | undefined);

  await assign(app, b.id, { agentId: 'x', agentName: 'Renamed?' });
  const after = await getAgent(app, 'x');
  assert.ok(after && patched);
  assert.equal(after.teamId, b.id, 'moved to B');
  assert.equal(after.name, 'Xavier', 'name kept');
  assert.ok((after.updatedAt as number) > (patched.updatedAt as number), 'updatedAt refreshed');
  assert.deepEqual({ ...after, teamId: null, updatedAt: 0 }, { ...patched, teamId: null, updatedAt: 0 }, 'nothing else changed');

  const list = await listTeams(app);
  assert.deepEqual(list.teams.map((x) => [x.name, x.agentCount]), [['A', 0], ['B', 1]]);
  assert.deepEqual(list.assignments, [{ agentId: 'x', teamId: b.id }]);
});

void test('Teams: POST /api/teams/:id/agents without a usable agentId answers 400 agentId is required and writes nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  const bodies: Array<string | undefined> = [
    ...BAD_BODIES,
    '{}',
    '{"agentName": "Nora"}',
    '{"agentId": ""}',
    '{"agentId": "   "}',
    '{"agentId": null}',
    '{"agentId": 12}',
    '{"agentId": ["a"]}',
  ];
  for (const payload of bodies) {
    const res = await rawJson(app, 'POST', `/api/teams/${team.id}/agents`, payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'agentId is required' }, String(payload));
  }
  const agents = await app.inject('/api/agents?includeArchived=true');
  assert.deepEqual(agents.json(), { agents: [] });
  assert.equal((await listTeams(app)).teams[0]?.agentCount, 0);
});

void test('Teams: POST /api/teams//agents with an empty team id answers 400 team id required', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ method: 'POST', url: '/api/teams//agents', payload: { agentId: 'a1' } });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'team id required' });
  assert.equal(await getAgent(app, 'a1'), null);
});

// ---------------------------------------------------------------- unassign

void test('Teams: DELETE /api/teams/:id/agents/:agentId clears the team id, keeps the row and ignores the :id segment', async (t) => {
  const { app } = await buildTestApp(t);
  const a = await createTeam(app, { name: 'A' });
  await assign(app, a.id, { agentId: 'a1', agentName: 'Ann' });
  await assign(app, a.id, { agentId: 'a2' });

  let res = await app.inject({ method: 'DELETE', url: `/api/teams/${a.id}/agents/a1` });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true });
  const a1 = await getAgent(app, 'a1');
  assert.equal(a1?.teamId, null);
  assert.equal(a1?.name, 'Ann', 'the row stays');

  // The :id segment is not part of the predicate: another or unknown team id still unassigns.
  res = await app.inject({ method: 'DELETE', url: '/api/teams/some-other-team/agents/a2' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true });
  assert.equal((await getAgent(app, 'a2'))?.teamId, null);

  const list = await listTeams(app);
  assert.equal(list.teams[0]?.agentCount, 0);
  assert.deepEqual(list.assignments, []);

  // Unknown agent: nothing to do, still ok, and no row is created.
  res = await app.inject({ method: 'DELETE', url: `/api/teams/${a.id}/agents/ghost` });
  assert.equal(res.statusCode, 200);
  assert.equal(await getAgent(app, 'ghost'), null);
});

void test('Teams: DELETE /api/teams/:id/agents/ with an empty agent id answers 400 agentId required', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  await assign(app, team.id, { agentId: 'a1' });
  const res = await app.inject({ method: 'DELETE', url: `/api/teams/${team.id}/agents/` });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'agentId required' });
  assert.equal((await getAgent(app, 'a1'))?.teamId, team.id);
});

// ---------------------------------------------------------------- list cache

void test('Teams: GET /api/teams reflects a write through the API at once', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual((await listTeams(app)).teams, []);
  const team = await createTeam(app);
  assert.deepEqual((await listTeams(app)).teams, [team]);
  await assign(app, team.id, { agentId: 'a1' });
  assert.equal((await listTeams(app)).teams[0]?.agentCount, 1);
  // A write to another table that the list reads (agents) through another route.
  await app.inject({ method: 'DELETE', url: '/api/agents/a1' });
  assert.equal((await listTeams(app)).teams[0]?.agentCount, 0);
  await app.inject({ method: 'PATCH', url: `/api/teams/${team.id}`, payload: { name: 'New' } });
  assert.equal((await listTeams(app)).teams[0]?.name, 'New');
  await app.inject({ method: 'DELETE', url: `/api/teams/${team.id}` });
  assert.deepEqual((await listTeams(app)).teams, []);
});

void test('Teams: GET /api/teams sees a team inserted through a second database connection', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const first = await createTeam(app);
  assert.equal((await listTeams(app)).teams.length, 1, 'list cached');
  assert.equal((await listTeams(app, '?includeArchived=true')).teams.length, 1);

  const other = openDatabase(runtime.deps.paths.db);
  try {
    const now = Date.now();
    other.prepare(
      `INSERT INTO teams (id, name, icon, color, is_archived, created_at, updated_at) VALUES (?, 'Outside', '🛰', '#000000', 0, ?, ?)`,
    ).run('outside-team', now, now);
    other.prepare(
      `INSERT INTO agents (id, name, team_id, status, runtime, role, is_archived, created_at, updated_at)
       VALUES ('out-agent', 'Out', ?, 'idle', 'gateway', 'member', 0, ?, ?)`,
    ).run(first.id, now, now);
  } finally {
    other.close();
  }

  const list = await listTeams(app);
  assert.deepEqual(list.teams.map((x) => x.id).sort(), [first.id, 'outside-team'].sort());
  assert.equal(list.teams.find((x) => x.id === first.id)?.agentCount, 1);
  assert.deepEqual(list.assignments, [{ agentId: 'out-agent', teamId: first.id }]);
  assert.equal((await listTeams(app, '?includeArchived=true')).teams.length, 2);
});

void test('Teams: GET /api/teams sends an ETag; If-None-Match with it gives 304 and an empty body; a changed list gets a new ETag', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await createTeam(app);
  const first = await app.inject('/api/teams');
  assert.equal(first.statusCode, 200);
  const etag = first.headers.etag;
  assert.equal(typeof etag, 'string');
  assert.ok(String(etag).length > 2);
  assert.match(String(first.headers['content-type']), /^application\/json/);

  const again = await app.inject('/api/teams');
  assert.equal(again.headers.etag, etag, 'same list, same ETag');
  assert.equal(again.body, first.body);

  const revalidated = await app.inject({ url: '/api/teams', headers: { 'if-none-match': String(etag) } });
  assert.equal(revalidated.statusCode, 304);
  assert.equal(revalidated.body, '');

  const stale = await app.inject({ url: '/api/teams', headers: { 'if-none-match': '"not-the-etag"' } });
  assert.equal(stale.statusCode, 200);
  assert.deepEqual(stale.json(), first.json());

  await createTeam(app, { name: 'Second' });
  const changed = await app.inject({ url: '/api/teams', headers: { 'if-none-match': String(etag) } });
  assert.equal(changed.statusCode, 200, 'a changed list is sent in full');
  assert.notEqual(changed.headers.etag, etag);
  assert.equal(changed.json<TeamList>().teams.length, 2);

  // A change made by another connection also moves the ETag.
  const etag2 = String(changed.headers.etag);
  const other = openDatabase(runtime.deps.paths.db);
  try {
    other.prepare("UPDATE teams SET name = 'Renamed outside' WHERE name = 'Second'").run();
  } finally {
    other.close();
  }
  const third = await app.inject({ url: '/api/teams', headers: { 'if-none-match': etag2 } });
  assert.equal(third.statusCode, 200);
  assert.notEqual(third.headers.etag, etag2);
  assert.ok(third.json<TeamList>().teams.some((x) => x.name === 'Renamed outside'));

  // The archived view has its own body and ETag.
  const all = await app.inject('/api/teams?includeArchived=true');
  assert.equal(all.statusCode, 200);
  const allRevalidated = await app.inject({ url: '/api/teams?includeArchived=true', headers: { 'if-none-match': String(all.headers.etag) } });
  assert.equal(allRevalidated.statusCode, 304);
});

void test('Teams: GET /api/teams is gzipped for a client that accepts it, with its own ETag; others get plain JSON', async (t) => {
  const { app } = await buildTestApp(t);
  // Enough teams for a body worth compressing.
  for (let i = 0; i < 12; i++) await createTeam(app, { name: `Team ${i}` });
  const plain = await app.inject('/api/teams');
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers.vary, 'accept-encoding');

  const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  const zipped = await app.inject({ url: '/api/teams', headers: browser });
  assert.equal(zipped.statusCode, 200);
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  assert.equal(zipped.headers.vary, 'accept-encoding');
  assert.match(String(zipped.headers['content-type']), /^application\/json/);
  assert.equal(Number(zipped.headers['content-length']), zipped.rawPayload.length);
  assert.ok(zipped.rawPayload.length < plain.rawPayload.length, 'smaller than the plain body');
  assert.deepEqual(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8')), plain.json(), 'the same list');
  assert.notEqual(zipped.headers.etag, plain.headers.etag, 'each representation has its own ETag');

  const again = await app.inject({ url: '/api/teams', headers: { ...browser, 'if-none-match': String(zipped.headers.etag) } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.rawPayload.length, 0);
  assert.equal(again.headers.etag, zipped.headers.etag);
  // The plain ETag does not validate the gzip body, nor the other way round.
  assert.equal((await app.inject({ url: '/api/teams', headers: { ...browser, 'if-none-match': String(plain.headers.etag) } })).statusCode, 200);
  assert.equal((await app.inject({ url: '/api/teams', headers: { 'if-none-match': String(zipped.headers.etag) } })).statusCode, 200);

  const refused = await app.inject({ url: '/api/teams', headers: { 'accept-encoding': 'gzip;q=0, br' } });
  assert.equal(refused.headers['content-encoding'], undefined);
  assert.deepEqual(refused.json(), plain.json());

  // A change reaches the compressed body too.
  await createTeam(app, { name: 'One more' });
  const changed = await app.inject({ url: '/api/teams', headers: { ...browser, 'if-none-match': String(zipped.headers.etag) } });
  assert.equal(changed.statusCode, 200);
  const list = JSON.parse(gunzipSync(changed.rawPayload).toString('utf8')) as TeamList;
  assert.ok(list.teams.some((x) => x.name === 'One more'));
});

void test('Teams: a short list is sent plain even to a client that accepts gzip', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/api/teams', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-encoding'], undefined);
  assert.deepEqual(res.json(), { teams: [], assignments: [] });
});
