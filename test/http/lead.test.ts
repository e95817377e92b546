// Spec "Smaller resources" → "Lead agent routes" (/api/lead/*) and the lead
// keys of "Team-scoped settings entries": team briefs, the global brief,
// display names and the lead override with its effective-lead chain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.ts';
import { untilClockPasses } from '../helpers/wait.ts';

interface Effective {
  agentId: string;
  name: string | null;
  displayName: string | null;
  runtime: string | null;
  tier: string;
}
interface OverrideView {
  agentId: string | null;
  effective: Effective | null;
  tier: string | null;
}

async function createTeam(app: FastifyInstance, name = 'Alpha'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/teams', payload: { name, icon: '🚀', color: '#ff0000' } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ team: { id: string } }>().team.id;
}

async function createAgent(app: FastifyInstance, body: Record<string, unknown>): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/agents', payload: body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ agent: { id: string } }>().agent.id;
}

async function archive(app: FastifyInstance, id: string) {
  const res = await app.inject({ method: 'PATCH', url: `/api/agents/${id}`, payload: { isArchived: true } });
  assert.equal(res.statusCode, 200, res.body);
}

async function getOverride(app: FastifyInstance): Promise<OverrideView> {
  const res = await app.inject('/api/lead/override');
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<OverrideView>();
  assert.deepEqual(Object.keys(body).sort(), ['agentId', 'effective', 'tier']);
  return body;
}

function postOverride(app: FastifyInstance, agentId: unknown) {
  return app.inject({ method: 'POST', url: '/api/lead/override', payload: { agentId } });
}

function rawJson(app: FastifyInstance, method: 'POST' | 'PUT', url: string, payload: string | undefined) {
  return payload === undefined
    ? app.inject({ method, url })
    : app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload });
}

const NON_OBJECT_BODIES: Array<string | undefined> = [undefined, '', '[1,2]', '"text"', 'null', '42', '{"content": '];

// ---------------------------------------------------------------- team briefs

void test('Lead agent routes: a team brief is null until PUT, then read back; PUT upserts; DELETE is idempotent', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  let res = await app.inject(`/api/lead/team-briefs/${team}`);
  assert.equal(res.statusCode, 200, 'a missing brief is not a 404');
  assert.deepEqual(res.json(), { content: null, updatedAt: null });

  const before = Date.now();
  res = await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: '# Goals\nShip.' } });
  assert.equal(res.statusCode, 200);
  const put = res.json<{ content: string; updatedAt: number }>();
  assert.deepEqual(Object.keys(put).sort(), ['content', 'updatedAt']);
  assert.equal(put.content, '# Goals\nShip.');
  assert.ok(put.updatedAt >= before && put.updatedAt <= Date.now());
  assert.deepEqual((await app.inject(`/api/lead/team-briefs/${team}`)).json(), put);

  await untilClockPasses(put.updatedAt); // so the upsert's updatedAt is strictly later
  res = await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: 'Replaced.' } });
  assert.equal(res.statusCode, 200);
  const second = res.json<{ content: string; updatedAt: number }>();
  assert.equal(second.content, 'Replaced.');
  assert.ok(second.updatedAt > put.updatedAt);
  assert.deepEqual((await app.inject(`/api/lead/team-briefs/${team}`)).json(), second);
  assert.equal(runtime.deps.db.prepare('SELECT COUNT(*) FROM lead_team_briefs').pluck().get(), 1, 'upsert: one row');

  // Empty content is still a string: stored as such.
  res = await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: '' } });
  assert.equal(res.statusCode, 200);
  assert.equal((await app.inject(`/api/lead/team-briefs/${team}`)).json<{ content: string }>().content, '');

  for (let i = 0; i < 2; i++) {
    res = await app.inject({ method: 'DELETE', url: `/api/lead/team-briefs/${team}` });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true });
    assert.deepEqual((await app.inject(`/api/lead/team-briefs/${team}`)).json(), { content: null, updatedAt: null });
  }
  res = await app.inject({ method: 'DELETE', url: '/api/lead/team-briefs/never-existed' });
  assert.equal(res.statusCode, 200);
});

void test('Lead agent routes: team briefs are per team', async (t) => {
  const { app } = await buildTestApp(t);
  const a = await createTeam(app, 'A');
  const b = await createTeam(app, 'B');
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${a}`, payload: { content: 'brief A' } });
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${b}`, payload: { content: 'brief B' } });
  await app.inject({ method: 'DELETE', url: `/api/lead/team-briefs/${a}` });
  assert.equal((await app.inject(`/api/lead/team-briefs/${a}`)).json<{ content: unknown }>().content, null);
  assert.equal((await app.inject(`/api/lead/team-briefs/${b}`)).json<{ content: unknown }>().content, 'brief B');
});

void test('Lead agent routes: PUT a team brief for an unknown team answers 404 team not found and stores nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const res = await app.inject({ method: 'PUT', url: '/api/lead/team-briefs/ghost', payload: { content: 'x' } });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json(), { error: 'team not found' });
  assert.equal(runtime.deps.db.prepare('SELECT COUNT(*) FROM lead_team_briefs').pluck().get(), 0);
  assert.deepEqual((await app.inject('/api/lead/team-briefs/ghost')).json(), { content: null, updatedAt: null });
});

void test('Lead agent routes: PUT a team brief without a string content answers 400 and changes nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: 'kept' } });
  const stored = (await app.inject(`/api/lead/team-briefs/${team}`)).json();
  for (const payload of [...NON_OBJECT_BODIES, '{}', '{"content": null}', '{"content": 5}', '{"text": "x"}']) {
    const res = await rawJson(app, 'PUT', `/api/lead/team-briefs/${team}`, payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'content (string) is required' }, String(payload));
  }
  assert.deepEqual((await app.inject(`/api/lead/team-briefs/${team}`)).json(), stored);
});

void test('Lead agent routes: team-brief routes with an empty teamId answer 400 teamId required', async (t) => {
  const { app } = await buildTestApp(t);
  for (const [method, url] of [
    ['GET', '/api/lead/team-briefs/'],
    ['PUT', '/api/lead/team-briefs/'],
    ['DELETE', '/api/lead/team-briefs/'],
    ['GET', '/api/lead/team-briefs/%20'],
  ] as const) {
    const res = await app.inject({ method, url, ...(method === 'PUT' ? { payload: { content: 'x' } } : {}) });
    assert.equal(res.statusCode, 400, `${method} ${url}`);
    assert.deepEqual(res.json(), { error: 'teamId required' });
  }
});

void test('Lead agent routes: a team brief is removed when its team is deleted', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: 'goes away' } });
  await app.inject({ method: 'DELETE', url: `/api/teams/${team}` });
  assert.equal(runtime.deps.db.prepare('SELECT COUNT(*) FROM lead_team_briefs WHERE team_id = ?').pluck().get(team), 0);
  assert.deepEqual((await app.inject(`/api/lead/team-briefs/${team}`)).json(), { content: null, updatedAt: null });
});

// ---------------------------------------------------------------- global brief

void test('Lead agent routes: the global brief lives in lead:global-brief; GET updatedAt is always null, PUT answers now', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  let res = await app.inject('/api/lead/global-brief');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { content: null, updatedAt: null });

  const before = Date.now();
  res = await app.inject({ method: 'PUT', url: '/api/lead/global-brief', payload: { content: 'Be brief.' } });
  assert.equal(res.statusCode, 200);
  const put = res.json<{ content: string; updatedAt: number }>();
  assert.equal(put.content, 'Be brief.');
  assert.equal(typeof put.updatedAt, 'number');
  assert.ok(put.updatedAt >= before && put.updatedAt <= Date.now(), 'updatedAt is now');
  assert.equal(runtime.deps.settingsTable.get('lead:global-brief'), 'Be brief.');

  res = await app.inject('/api/lead/global-brief');
  assert.deepEqual(res.json(), { content: 'Be brief.', updatedAt: null });

  await app.inject({ method: 'PUT', url: '/api/lead/global-brief', payload: { content: 'Second.' } });
  assert.deepEqual((await app.inject('/api/lead/global-brief')).json(), { content: 'Second.', updatedAt: null });
});

void test('Lead agent routes: PUT the global brief without a string content answers 400 and changes nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await app.inject({ method: 'PUT', url: '/api/lead/global-brief', payload: { content: 'kept' } });
  for (const payload of [...NON_OBJECT_BODIES, '{}', '{"content": null}', '{"content": true}']) {
    const res = await rawJson(app, 'PUT', '/api/lead/global-brief', payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'content (string) is required' }, String(payload));
  }
  assert.equal(runtime.deps.settingsTable.get('lead:global-brief'), 'kept');
});

// ---------------------------------------------------------------- display name

void test('Lead agent routes: display name is trimmed, truncated to 80 characters, and cleared by an empty name', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const key = 'lead:display-name:agent-1';
  let res = await app.inject('/api/lead/display-name/agent-1');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { name: null });

  res = await app.inject({ method: 'PUT', url: '/api/lead/display-name/agent-1', payload: { name: '  Chief of Staff \n' } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { name: 'Chief of Staff' });
  assert.deepEqual((await app.inject('/api/lead/display-name/agent-1')).json(), { name: 'Chief of Staff' });
  assert.equal(runtime.deps.settingsTable.get(key), 'Chief of Staff');

  const long = `   ${'n'.repeat(79)}XYZ${'m'.repeat(50)}`;
  res = await app.inject({ method: 'PUT', url: '/api/lead/display-name/agent-1', payload: { name: long } });
  assert.deepEqual(res.json(), { name: `${'n'.repeat(79)}X` });
  assert.deepEqual((await app.inject('/api/lead/display-name/agent-1')).json(), { name: `${'n'.repeat(79)}X` });
  const exact = 'e'.repeat(80);
  res = await app.inject({ method: 'PUT', url: '/api/lead/display-name/agent-1', payload: { name: exact } });
  assert.deepEqual(res.json(), { name: exact });

  // Another agent's name is separate.
  await app.inject({ method: 'PUT', url: '/api/lead/display-name/agent-2', payload: { name: 'Other' } });

  for (const empty of ['', '   \t ']) {
    await app.inject({ method: 'PUT', url: '/api/lead/display-name/agent-1', payload: { name: 'Back' } });
    res = await app.inject({ method: 'PUT', url: '/api/lead/display-name/agent-1', payload: { name: empty } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { name: null }, JSON.stringify(empty));
    assert.deepEqual((await app.inject('/api/lead/display-name/agent-1')).json(), { name: null });
    assert.equal(runtime.deps.settingsTable.get(key), null);
  }
  assert.deepEqual((await app.inject('/api/lead/display-name/agent-2')).json(), { name: 'Other' });
});

void test('Lead agent routes: PUT a display name without a string name answers 400 and changes nothing', async (t) => {
  const { app } = await buildTestApp(t);
  await app.inject({ method: 'PUT', url: '/api/lead/display-name/a1', payload: { name: 'Kept' } });
  for (const payload of [...NON_OBJECT_BODIES, '{}', '{"name": null}', '{"name": 3}', '{"displayName": "x"}']) {
    const res = await rawJson(app, 'PUT', '/api/lead/display-name/a1', payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'name (string) is required' }, String(payload));
  }
  assert.deepEqual((await app.inject('/api/lead/display-name/a1')).json(), { name: 'Kept' });
});

// ---------------------------------------------------------------- override and the effective-lead chain

void test('Lead agent routes: with no override and no lead agents the effective lead and tier are null', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await getOverride(app), { agentId: null, effective: null, tier: null });
  // Members are not leads, whatever their runtime.
  await createAgent(app, { name: 'Member', runtime: 'native' });
  await createAgent(app, { name: 'Member 2', runtime: 'gateway', role: 'member' });
  assert.deepEqual(await getOverride(app), { agentId: null, effective: null, tier: null });
  // A lead on another runtime is not in the chain.
  await createAgent(app, { name: 'CLI lead', runtime: 'cli-a', role: 'lead' });
  assert.deepEqual(await getOverride(app), { agentId: null, effective: null, tier: null });
});

void test('Lead agent routes: the chain is override, then native, then gateway; the oldest lead wins a tier', async (t) => {
  const { app } = await buildTestApp(t);
  const gw = await createAgent(app, { name: 'Gateway Lead', role: 'lead', runtime: 'gateway' });
  assert.deepEqual(await getOverride(app), {
    agentId: null,
    effective: { agentId: gw, name: 'Gateway Lead', displayName: null, runtime: 'gateway', tier: 'gateway' },
    tier: 'gateway',
  });

  // The clock moves past each creation, so "oldest" is decided by createdAt, not by a tie.
  await untilClockPasses();
  const native = await createAgent(app, { name: 'Native Lead', role: 'lead', runtime: 'native' });
  await untilClockPasses();
  await createAgent(app, { name: 'Younger Native Lead', role: 'lead', runtime: 'native' });
  assert.deepEqual(await getOverride(app), {
    agentId: null,
    effective: { agentId: native, name: 'Native Lead', displayName: null, runtime: 'native', tier: 'native' },
    tier: 'native',
  }, 'native beats gateway; the oldest native lead wins');

  // The display-name override shows in the effective lead.
  await app.inject({ method: 'PUT', url: `/api/lead/display-name/${native}`, payload: { name: 'Captain' } });
  assert.equal((await getOverride(app)).effective?.displayName, 'Captain');

  // An archived lead leaves the chain: the next native lead takes over.
  await archive(app, native);
  const view = await getOverride(app);
  assert.equal(view.tier, 'native');
  assert.equal(view.effective?.name, 'Younger Native Lead');

  const member = await createAgent(app, { name: 'Plain Member', runtime: 'gateway' });
  const res = await postOverride(app, member);
  assert.equal(res.statusCode, 200);
  const expected = {
    agentId: member,
    effective: { agentId: member, name: 'Plain Member', displayName: null, runtime: 'gateway', tier: 'override' },
    tier: 'override',
  };
  assert.deepEqual(res.json(), expected, 'POST answers the re-resolved view');
  assert.deepEqual(await getOverride(app), expected, 'the override beats native and gateway');
});

void test('Lead agent routes: the override keeps tier override after its agent is archived', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await createAgent(app, { name: 'Native Lead', role: 'lead', runtime: 'native' });
  const chosen = await createAgent(app, { name: 'Chosen', runtime: 'cli-b' });
  assert.equal((await postOverride(app, chosen)).statusCode, 200);
  assert.equal(runtime.deps.settingsTable.get('lead:agent-id'), chosen);
  await archive(app, chosen);
  const view = await getOverride(app);
  assert.equal(view.agentId, chosen);
  assert.equal(view.tier, 'override');
  assert.equal(view.effective?.agentId, chosen);
  assert.equal(view.effective?.tier, 'override');
  assert.equal(view.effective?.name, 'Chosen');
  assert.equal(view.effective?.runtime, 'cli-b');
});

void test('Lead agent routes: POST /api/lead/override of an archived or unknown agent answers 404 and keeps the stored override', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const current = await createAgent(app, { name: 'Current' });
  const retired = await createAgent(app, { name: 'Retired', role: 'lead', runtime: 'native' });
  await archive(app, retired);
  assert.equal((await postOverride(app, current)).statusCode, 200);
  const before = await getOverride(app);

  for (const agentId of [retired, 'no-such-agent', ` ${current}`]) {
    const res = await postOverride(app, agentId);
    assert.equal(res.statusCode, 404, agentId);
    assert.deepEqual(res.json(), { error: 'agent not found' });
  }
  assert.deepEqual(await getOverride(app), before);
  assert.equal(runtime.deps.settingsTable.get('lead:agent-id'), current);
});

void test('Lead agent routes: POST /api/lead/override with null clears it (stored empty) and the chain resumes', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const gw = await createAgent(app, { name: 'GW Lead', role: 'lead', runtime: 'gateway' });
  const chosen = await createAgent(app, { name: 'Chosen' });
  await postOverride(app, chosen);
  const res = await postOverride(app, null);
  assert.equal(res.statusCode, 200);
  const cleared = {
    agentId: null,
    effective: { agentId: gw, name: 'GW Lead', displayName: null, runtime: 'gateway', tier: 'gateway' },
    tier: 'gateway',
  };
  assert.deepEqual(res.json(), cleared);
  assert.equal(runtime.deps.settingsTable.get('lead:agent-id'), '', 'cleared is stored as an empty value');
  assert.deepEqual(await getOverride(app), cleared);
  // Clearing when nothing is set is fine too.
  assert.equal((await postOverride(app, null)).statusCode, 200);
  assert.deepEqual(await getOverride(app), cleared);
});

void test('Lead agent routes: POST /api/lead/override refuses a non-object body, a missing key and a bad agentId with 400', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const chosen = await createAgent(app, { name: 'Chosen' });
  await postOverride(app, chosen);
  const bodyCases: Array<string | undefined> = [...NON_OBJECT_BODIES, '{}', '{"agent": "x"}'];
  for (const payload of bodyCases) {
    const res = await rawJson(app, 'POST', '/api/lead/override', payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'body must be an object with an agentId key' }, String(payload));
  }
  for (const agentId of ['', '   ', 7, false, ['x'], { id: chosen }]) {
    const res = await postOverride(app, agentId);
    assert.equal(res.statusCode, 400, JSON.stringify(agentId));
    assert.deepEqual(res.json(), { error: 'agentId must be null or a non-empty string' }, JSON.stringify(agentId));
  }
  assert.equal(runtime.deps.settingsTable.get('lead:agent-id'), chosen, 'nothing changed');
});

void test('Lead agent routes: deleting an agent clears an override naming it and its display name', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const native = await createAgent(app, { name: 'Native Lead', role: 'lead', runtime: 'native' });
  const chosen = await createAgent(app, { name: 'Chosen' });
  const other = await createAgent(app, { name: 'Other' });
  await postOverride(app, chosen);
  await app.inject({ method: 'PUT', url: `/api/lead/display-name/${chosen}`, payload: { name: 'Boss' } });
  await app.inject({ method: 'PUT', url: `/api/lead/display-name/${other}`, payload: { name: 'Keeps' } });
  assert.equal((await getOverride(app)).effective?.displayName, 'Boss');

  // Deleting some other agent leaves the override alone.
  assert.equal((await app.inject({ method: 'DELETE', url: `/api/agents/${other}` })).statusCode, 200);
  assert.equal((await getOverride(app)).agentId, chosen);

  assert.equal((await app.inject({ method: 'DELETE', url: `/api/agents/${chosen}` })).statusCode, 200);
  const view = await getOverride(app);
  assert.equal(view.agentId, null);
  assert.equal(view.tier, 'native');
  assert.equal(view.effective?.agentId, native);
  assert.equal(runtime.deps.settingsTable.get('lead:agent-id'), '');
  assert.deepEqual((await app.inject(`/api/lead/display-name/${chosen}`)).json(), { name: null });
  assert.deepEqual((await app.inject(`/api/lead/display-name/${other}`)).json(), { name: null }, "the deleted agent's display name goes too");
});
