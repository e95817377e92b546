// Spec "Onboarding state", "Team-scoped settings entries" and "### Teams":
// onboarding GET/PATCH, team rules GET/PUT and the activity summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../supervisor/runtime.ts';
import { buildTestApp } from '../helpers/app.ts';

interface Onboarding {
  agentsIntroduced: boolean;
  userIntroduced: boolean;
  userIntroText: string;
}

const DEFAULTS: Onboarding = { agentsIntroduced: false, userIntroduced: false, userIntroText: '' };

async function createTeam(app: FastifyInstance, name = 'Alpha'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/teams', payload: { name, icon: '🚀', color: '#ff0000' } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ team: { id: string } }>().team.id;
}

function rawJson(app: FastifyInstance, method: 'POST' | 'PATCH' | 'PUT', url: string, payload: string | undefined) {
  return payload === undefined
    ? app.inject({ method, url })
    : app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload });
}

const NON_OBJECT_BODIES: Array<string | undefined> = [undefined, '', '[1,2]', '"text"', 'null', '42', 'true', '{"agentsIntroduced": '];

async function onboarding(app: FastifyInstance, teamId: string): Promise<Onboarding> {
  const res = await app.inject(`/api/teams/${teamId}/onboarding`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Onboarding>();
}

async function patchOnboarding(app: FastifyInstance, teamId: string, payload: Record<string, unknown>): Promise<Onboarding> {
  const res = await app.inject({ method: 'PATCH', url: `/api/teams/${teamId}/onboarding`, payload });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Onboarding>();
}

async function summary(app: FastifyInstance, teamId: string): Promise<string | null> {
  const res = await app.inject(`/api/teams/${teamId}/activity-summary`);
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<{ content: string | null }>();
  assert.deepEqual(Object.keys(body), ['content']);
  return body.content;
}

let entrySeq = 0;
/** Writes transcript entries under `agent:<agentId>:team:<teamId>`. */
function chat(runtime: Runtime, agentId: string, teamId: string, entries: Array<{ role: string; kind?: string; text: unknown }>) {
  runtime.deps.chatMessages.insert(
    `agent:${agentId}:team:${teamId}`,
    entries.map((e) => ({ entryId: `e-${++entrySeq}`, kind: e.kind ?? e.role, ...e })),
  );
}

// ---------------------------------------------------------------- onboarding

void test('Onboarding state: GET /api/teams/:id/onboarding gives the defaults when nothing is stored', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  const res = await app.inject(`/api/teams/${team}/onboarding`);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), DEFAULTS);
  assert.deepEqual(await onboarding(app, 'never-created'), DEFAULTS);
  assert.equal(runtime.deps.settingsTable.get(`team-onboarding:${team}`), null, 'a read writes nothing');
});

void test('Onboarding state: PATCH /api/teams/:id/onboarding merges the supplied fields and answers the full state', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  assert.deepEqual(await patchOnboarding(app, team, { agentsIntroduced: true }), { ...DEFAULTS, agentsIntroduced: true });
  assert.deepEqual(await patchOnboarding(app, team, { userIntroText: 'I am the user' }), {
    agentsIntroduced: true,
    userIntroduced: false,
    userIntroText: 'I am the user',
  });
  assert.deepEqual(await patchOnboarding(app, team, { userIntroduced: true }), {
    agentsIntroduced: true,
    userIntroduced: true,
    userIntroText: 'I am the user',
  });
  assert.deepEqual(await patchOnboarding(app, team, {}), { agentsIntroduced: true, userIntroduced: true, userIntroText: 'I am the user' });
  assert.deepEqual(await patchOnboarding(app, team, { agentsIntroduced: false, userIntroText: '' }), {
    agentsIntroduced: false,
    userIntroduced: true,
    userIntroText: '',
  });
  assert.deepEqual(await onboarding(app, team), { agentsIntroduced: false, userIntroduced: true, userIntroText: '' });
  // Stored as JSON under team-onboarding:<teamId>.
  assert.deepEqual(JSON.parse(runtime.deps.settingsTable.get(`team-onboarding:${team}`) ?? 'null'), {
    agentsIntroduced: false,
    userIntroduced: true,
    userIntroText: '',
  });
  // Another team is separate.
  const other = await createTeam(app, 'Other');
  assert.deepEqual(await onboarding(app, other), DEFAULTS);
});

void test('Onboarding state: PATCH ignores a wrong-typed field and keeps the current value', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  const state = { agentsIntroduced: true, userIntroduced: true, userIntroText: 'hello' };
  assert.deepEqual(await patchOnboarding(app, team, state), state);
  const wrong: Array<Record<string, unknown>> = [
    { agentsIntroduced: 'false' },
    { agentsIntroduced: 0 },
    { agentsIntroduced: null },
    { userIntroduced: 0 },
    { userIntroduced: 'no' },
    { userIntroText: 42 },
    { userIntroText: null },
    { userIntroText: ['a'] },
    { agentsIntroduced: 'x', userIntroduced: {}, userIntroText: false },
  ];
  for (const payload of wrong) {
    assert.deepEqual(await patchOnboarding(app, team, payload), state, JSON.stringify(payload));
  }
  // A wrong-typed field next to a good one: the good one is applied.
  assert.deepEqual(await patchOnboarding(app, team, { agentsIntroduced: 'no', userIntroduced: false }), { ...state, userIntroduced: false });
  assert.deepEqual(await onboarding(app, team), { ...state, userIntroduced: false });
});

void test('Onboarding state: userIntroText is sliced to 4000 characters', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  const exact = 'x'.repeat(4000);
  assert.equal((await patchOnboarding(app, team, { userIntroText: exact })).userIntroText, exact);
  const long = `${'a'.repeat(3999)}bc${'d'.repeat(500)}`;
  const res = await patchOnboarding(app, team, { userIntroText: long });
  assert.equal(res.userIntroText.length, 4000);
  assert.equal(res.userIntroText, long.slice(0, 4000));
  assert.equal(res.userIntroText.at(-1), 'b');
  assert.equal((await onboarding(app, team)).userIntroText, long.slice(0, 4000));
});

void test('Onboarding state: PATCH with a missing, non-object or malformed body answers 400 invalid JSON and changes nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  await patchOnboarding(app, team, { userIntroText: 'kept' });
  for (const payload of NON_OBJECT_BODIES) {
    const res = await rawJson(app, 'PATCH', `/api/teams/${team}/onboarding`, payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'invalid JSON' }, String(payload));
  }
  assert.deepEqual(await onboarding(app, team), { ...DEFAULTS, userIntroText: 'kept' });
});

void test('Onboarding state: GET and PATCH with an empty team id answer 400 team id required', async (t) => {
  const { app } = await buildTestApp(t);
  let res = await app.inject('/api/teams//onboarding');
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'team id required' });
  res = await app.inject({ method: 'PATCH', url: '/api/teams/%20/onboarding', payload: { agentsIntroduced: true } });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'team id required' });
});

// ---------------------------------------------------------------- team rules

void test('Team-scoped settings entries: GET /api/team-rules/:teamId of a team without rules gives empty text and null updatedAt', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  const res = await app.inject(`/api/team-rules/${team}`);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { teamId: team, text: '', updatedAt: null });
});

void test('Team-scoped settings entries: PUT /api/team-rules/:teamId replaces the text stored under team-rules:<teamId>', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  const before = Date.now();
  let res = await app.inject({ method: 'PUT', url: `/api/team-rules/${team}`, payload: { text: 'Be kind.\nShip daily.' } });
  assert.equal(res.statusCode, 200);
  const put = res.json<{ teamId: string; text: string; updatedAt: number }>();
  assert.deepEqual(Object.keys(put).sort(), ['teamId', 'text', 'updatedAt']);
  assert.equal(put.teamId, team);
  assert.equal(put.text, 'Be kind.\nShip daily.');
  assert.ok(put.updatedAt >= before && put.updatedAt <= Date.now());
  assert.equal(runtime.deps.settingsTable.get(`team-rules:${team}`), 'Be kind.\nShip daily.');
  assert.deepEqual((await app.inject(`/api/team-rules/${team}`)).json(), put);

  res = await app.inject({ method: 'PUT', url: `/api/team-rules/${team}`, payload: { text: 'Only this.' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json<{ text: string }>().text, 'Only this.', 'replaced, not appended');
  assert.equal((await app.inject(`/api/team-rules/${team}`)).json<{ text: string }>().text, 'Only this.');

  // Empty text clears.
  res = await app.inject({ method: 'PUT', url: `/api/team-rules/${team}`, payload: { text: '' } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { teamId: team, text: '', updatedAt: null });
  assert.deepEqual((await app.inject(`/api/team-rules/${team}`)).json(), { teamId: team, text: '', updatedAt: null });
  assert.equal(runtime.deps.settingsTable.get(`team-rules:${team}`), null);
});

void test('Team-scoped settings entries: PUT team rules accepts exactly 4000 characters and refuses 4001 with nothing changed', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  const exact = 'r'.repeat(4000);
  let res = await app.inject({ method: 'PUT', url: `/api/team-rules/${team}`, payload: { text: exact } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json<{ text: string }>().text.length, 4000);
  const stored = (await app.inject(`/api/team-rules/${team}`)).json();

  res = await app.inject({ method: 'PUT', url: `/api/team-rules/${team}`, payload: { text: 's'.repeat(4001) } });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'text must be at most 4000 characters' });
  assert.deepEqual((await app.inject(`/api/team-rules/${team}`)).json(), stored, 'nothing changed');
  assert.equal(runtime.deps.settingsTable.get(`team-rules:${team}`), exact);
});

void test('Team-scoped settings entries: PUT team rules without a string text answers 400 text (string) is required', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  await app.inject({ method: 'PUT', url: `/api/team-rules/${team}`, payload: { text: 'kept' } });
  const stored = (await app.inject(`/api/team-rules/${team}`)).json();
  const bodies: Array<string | undefined> = [
    ...NON_OBJECT_BODIES,
    '{}',
    '{"text": null}',
    '{"text": 12}',
    '{"text": ["a"]}',
    '{"rules": "x"}',
  ];
  for (const payload of bodies) {
    const res = await rawJson(app, 'PUT', `/api/team-rules/${team}`, payload);
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'text (string) is required' }, String(payload));
  }
  assert.deepEqual((await app.inject(`/api/team-rules/${team}`)).json(), stored);
});

void test('Team-scoped settings entries: team rules of an unknown team answer 404 team not found and store nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  let res = await app.inject('/api/team-rules/ghost');
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json(), { error: 'team not found' });
  res = await app.inject({ method: 'PUT', url: '/api/team-rules/ghost', payload: { text: 'rules' } });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json(), { error: 'team not found' });
  assert.equal(runtime.deps.settingsTable.get('team-rules:ghost'), null);
  res = await app.inject('/api/team-rules/');
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'team id required' });
});

// ---------------------------------------------------------------- activity summary

void test('Teams: GET /api/teams/:id/activity-summary of an unknown team gives { content: null }', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  assert.equal(await summary(app, 'ghost'), null);
  // Even when tasks or transcripts name that id.
  const task = await app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'orphan task', teamId: 'ghost' } });
  assert.equal(task.statusCode, 200, task.body);
  chat(runtime, 'a1', 'ghost', [{ role: 'user', text: 'anyone?' }]);
  assert.equal(await summary(app, 'ghost'), null);

  // A deleted team is unknown too.
  const team = await createTeam(app);
  await app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'left behind', teamId: team } });
  assert.notEqual(await summary(app, team), null);
  await app.inject({ method: 'DELETE', url: `/api/teams/${team}` });
  assert.equal(await summary(app, team), null);
});

void test('Teams: GET /api/teams/:id/activity-summary of a team with nothing to say gives { content: null }', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  assert.equal(await summary(app, team), null);
  // Members, an empty brief and only meaningless chat still say nothing.
  await app.inject({ method: 'POST', url: `/api/teams/${team}/agents`, payload: { agentId: 'a1', agentName: 'Alice' } });
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: '   \n ' } });
  chat(runtime, 'a1', team, [
    { role: 'system', kind: 'meta', text: 'delivery failed' },
    { role: 'assistant', kind: 'meta', text: 'run started' },
    { role: 'system', kind: 'assistant', text: 'system note' },
    { role: 'user', text: '' },
    { role: 'assistant', text: '  \n\t ' },
    { role: 'assistant', text: 42 },
  ]);
  assert.equal(await summary(app, team), null);
});

void test('Teams: activity summary builds lead brief, board and recent chat in order, joined by blank lines', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  await app.inject({ method: 'POST', url: `/api/teams/${team}/agents`, payload: { agentId: 'a1', agentName: 'Alice' } });
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: 'Ship the beta.' } });
  const task = await app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'Write the spec', teamId: team } });
  assert.equal(task.statusCode, 200, task.body);
  chat(runtime, 'a1', team, [
    { role: 'user', text: 'Status?' },
    { role: 'assistant', text: 'On   it,\n  boss.' },
  ]);
  assert.equal(
    await summary(app, team),
    '## Lead brief\nShip the beta.\n\n## Board\n1 task: 1 todo\n- [todo] Write the spec\n\n## Recent chat\nUser: Status?\nAlice: On it, boss.',
  );
});

void test('Teams: activity summary clips the lead brief to 900 characters', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: 'b'.repeat(2000) } });
  const content = await summary(app, team);
  assert.ok(content !== null && content.startsWith('## Lead brief\n'));
  const brief = content.slice('## Lead brief\n'.length);
  assert.equal(brief.length, 900);
  assert.ok(brief.startsWith('b'.repeat(899)));
  // A brief of exactly 900 is kept whole.
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: 'c'.repeat(900) } });
  assert.equal(await summary(app, team), `## Lead brief\n${'c'.repeat(900)}`);
});

void test('Teams: activity summary has a board section only when the team has tasks', async (t) => {
  const { app } = await buildTestApp(t);
  const team = await createTeam(app);
  const other = await createTeam(app, 'Other');
  await app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'not ours', teamId: other } });
  assert.equal(await summary(app, team), null, "another team's tasks are not this team's board");
  for (const title of ['First', 'Second']) {
    const res = await app.inject({ method: 'POST', url: '/api/tasks', payload: { title, teamId: team } });
    assert.equal(res.statusCode, 200);
  }
  const content = await summary(app, team);
  assert.ok(content !== null && content.startsWith('## Board\n2 tasks: 2 todo\n'), String(content));
  assert.ok(content.includes('- [todo] First'));
  assert.ok(content.includes('- [todo] Second'));
  assert.ok(!content.includes('not ours'));
  assert.ok(!content.includes('## Recent chat'));
  assert.ok(!content.includes('## Lead brief'));
});

void test('Teams: activity summary keeps at most 30 recent turns, dropping the oldest first', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  await app.inject({ method: 'POST', url: `/api/teams/${team}/agents`, payload: { agentId: 'a1', agentName: 'Alice' } });
  await app.inject({ method: 'POST', url: `/api/teams/${team}/agents`, payload: { agentId: 'b1', agentName: 'Bob' } });
  // 36 short turns, alternating between two members' sessions.
  for (let i = 1; i <= 36; i++) {
    chat(runtime, i % 2 === 0 ? 'a1' : 'b1', team, [{ role: i % 3 === 0 ? 'user' : 'assistant', text: `turn ${i}` }]);
  }
  const content = await summary(app, team);
  assert.ok(content !== null && content.startsWith('## Recent chat\n'));
  const lines = content.slice('## Recent chat\n'.length).split('\n');
  assert.equal(lines.length, 30);
  const expected = [];
  for (let i = 7; i <= 36; i++) expected.push(`${i % 3 === 0 ? 'User' : i % 2 === 0 ? 'Alice' : 'Bob'}: turn ${i}`);
  assert.deepEqual(lines, expected, 'the newest 30, oldest first, across sessions');
});

void test('Teams: activity summary fits recent chat in the 2500-character budget, dropping the oldest turns', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  await app.inject({ method: 'POST', url: `/api/teams/${team}/agents`, payload: { agentId: 'a1', agentName: 'Alice' } });
  await app.inject({ method: 'PUT', url: `/api/lead/team-briefs/${team}`, payload: { content: 'Short brief.' } });
  await app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'One task', teamId: team } });
  // 30 turns of about 150 characters: 4500 in all, well over the budget.
  for (let i = 10; i < 40; i++) chat(runtime, 'a1', team, [{ role: 'assistant', text: `${i} ${'w'.repeat(140)}` }]);
  const content = await summary(app, team);
  assert.ok(content);
  assert.ok(content.length <= 2500, `length ${content.length}`);
  assert.ok(content.length > 2500 - 152, `the budget is used: length ${content.length}`);
  assert.ok(content.startsWith('## Lead brief\nShort brief.\n\n## Board\n'));
  const chatText = content.slice(content.indexOf('## Recent chat\n') + '## Recent chat\n'.length);
  const nums = chatText.split('\n').map((l) => Number(/^Alice: (\d+) /.exec(l)?.[1]));
  assert.ok(nums.length < 30 && nums.length > 10, `${nums.length} turns kept`);
  assert.equal(nums.at(-1), 39, 'the newest turn is kept, last');
  assert.deepEqual(nums, nums.map((_, k) => 40 - nums.length + k), 'a contiguous run of the newest turns in order');
});

void test('Teams: activity summary includes the effective lead agent under its name, and skips meta and system rows', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const team = await createTeam(app);
  const other = await createTeam(app, 'Other');
  await app.inject({ method: 'POST', url: `/api/teams/${team}/agents`, payload: { agentId: 'a1', agentName: 'Alice' } });
  const res = await app.inject({ method: 'POST', url: '/api/agents', payload: { name: 'Boss', role: 'lead', runtime: 'native' } });
  assert.equal(res.statusCode, 200, res.body);
  const leadId = res.json<{ agent: { id: string } }>().agent.id;

  chat(runtime, 'a1', team, [{ role: 'user', text: 'one' }]);
  chat(runtime, leadId, team, [{ role: 'assistant', text: 'two' }]);
  chat(runtime, 'a1', team, [
    { role: 'system', kind: 'meta', text: 'send failed' },
    { role: 'assistant', text: 'three' },
  ]);
  chat(runtime, leadId, team, [{ role: 'assistant', kind: 'meta', text: 'hidden' }]);
  chat(runtime, leadId, other, [{ role: 'assistant', text: 'other team' }]);
  chat(runtime, 'stranger', team, [{ role: 'assistant', text: 'not a member' }]);
  chat(runtime, 'a1', team, [{ role: 'user', text: 'four' }]);

  assert.equal(await summary(app, team), '## Recent chat\nUser: one\nBoss: two\nAlice: three\nUser: four');

  // The lead's display-name override is the name it is shown under.
  await app.inject({ method: 'PUT', url: `/api/lead/display-name/${leadId}`, payload: { name: 'Chief' } });
  assert.equal(await summary(app, team), '## Recent chat\nUser: one\nChief: two\nAlice: three\nUser: four');
});

void test('Teams: GET /api/teams//activity-summary answers 400 team id required', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject('/api/teams//activity-summary');
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'team id required' });
});

void test('Teams: activity summary counts a large board whole and lists its most recently updated open tasks', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const teamId = await createTeam(app);
  // 2,500 done tasks written directly (the board's size, not the API, is under test), then two open ones.
  const insert = runtime.deps.db.prepare(
    `INSERT INTO tasks (id, team_id, title, status, created_at, updated_at) VALUES (?, ?, ?, 'done', ?, ?)`,
  );
  runtime.deps.db.transaction(() => {
    for (let i = 0; i < 2500; i++) insert.run(`old-${i}`, teamId, `old ${i}`, i, i);
  })();
  for (const title of ['first open', 'newest open']) {
    const res = await app.inject({ method: 'POST', url: '/api/tasks', payload: { title, teamId } });
    assert.equal(res.statusCode, 200);
  }
  const content = await summary(app, teamId);
  assert.equal(content, '## Board\n2502 tasks: 2 todo, 2500 done\n- [todo] newest open\n- [todo] first open');
});
