// Spec "Teams": the peer-chat room (issue 17 #7). GET /api/team-chat reads a
// team's room past a cursor; POST /api/team-chat/exchange checks its body,
// the team, the two agents and the gate before it starts anything. Shapes:
// docs/api.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTeamChatPosts } from '../../shared/team-chat/room/posts.ts';
import { TEAM_CHAT_MESSAGES as M } from '../../shared/team-chat/schemas.ts';
import { waitFor } from '../helpers/wait.ts';
import { assign, chatFixture, createTeam, DELIVERY_WAIT_MS, type ChatFixture } from './team-chat-fixture.ts';

function poster(f: ChatFixture) {
  return createTeamChatPosts({ db: f.runtime.deps.db, tx: f.runtime.deps.tx, eventLog: f.runtime.deps.eventLog });
}

interface RoomPage {
  posts: Array<{ id: number; teamId: string; authorAgentId: string; text: string; createdAt: number; exchangeId: string | null }>;
  cursor: number;
}

async function room(f: ChatFixture, query: string): Promise<RoomPage> {
  const res = await f.app.inject(`/api/team-chat${query}`);
  assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
  return res.json<RoomPage>();
}

void test('Teams → GET /api/team-chat: teamId is required (400 teamId required)', async (t) => {
  const f = await chatFixture(t);
  for (const query of ['', '?teamId=', '?teamId=%20', '?since=3']) {
    const res = await f.app.inject(`/api/team-chat${query}`);
    assert.equal(res.statusCode, 400, query);
    assert.deepEqual(res.json(), { error: M.roomTeamIdRequired }, query);
  }
});

void test('Teams → GET /api/team-chat: the team\'s posts past since, oldest first, with the cursor at the last one; limit defaults to 100 and is clamped to 1..500', async (t) => {
  const f = await chatFixture(t);
  const posts = poster(f);
  const ids: number[] = [];
  for (let i = 0; i < 105; i++) ids.push(posts.post({ teamId: f.teamId, authorAgentId: i % 2 ? f.ann : f.bob, text: `post ${i}`, emitEvent: false }).id);
  posts.post({ teamId: 'another-team', authorAgentId: 'x', text: 'elsewhere', emitEvent: false });

  const page = await room(f, `?teamId=${f.teamId}`);
  assert.equal(page.posts.length, 100, 'default limit');
  assert.deepEqual(page.posts.map((p) => p.id), ids.slice(0, 100));
  assert.equal(page.cursor, ids[99]);
  assert.deepEqual(page.posts[1], { id: ids[1], teamId: f.teamId, authorAgentId: f.ann, text: 'post 1', createdAt: page.posts[1]?.createdAt, exchangeId: null });
  assert.equal(typeof page.posts[1]?.createdAt, 'number');

  const rest = await room(f, `?teamId=${f.teamId}&since=${page.cursor}`);
  assert.deepEqual(rest.posts.map((p) => p.id), ids.slice(100));
  assert.equal(rest.cursor, ids[104]);
  const empty = await room(f, `?teamId=${f.teamId}&since=${rest.cursor}`);
  assert.deepEqual(empty, { posts: [], cursor: rest.cursor }, 'no posts: the cursor stays at since');

  for (const [limit, n] of [['0', 1], ['-4', 1], ['2', 2], ['2.7', 2], ['1000', 105], ['abc', 100], ['', 100]] as const) {
    assert.equal((await room(f, `?teamId=${f.teamId}&limit=${limit}`)).posts.length, n, `limit=${limit}`);
  }
  for (const since of ['-1', 'abc', 'Infinity', '']) {
    assert.equal((await room(f, `?teamId=${f.teamId}&since=${since}&limit=1`)).posts[0]?.id, ids[0], `since=${since} reads from 0`);
  }
  assert.deepEqual(await room(f, '?teamId=no-such-team'), { posts: [], cursor: 0 }, 'an unknown team has an empty room');
});

void test('Teams → POST /api/team-chat/exchange: a missing or malformed body or field, equal agents and bad turns answer 400 with their message and start nothing', async (t) => {
  const f = await chatFixture(t);
  const good = { teamId: f.teamId, fromAgentId: f.ann, toAgentId: f.bob, topic: 'the launch date' };
  const send = (payload: unknown) =>
    typeof payload === 'string'
      ? f.app.inject({ method: 'POST', url: '/api/team-chat/exchange', headers: { 'content-type': 'application/json' }, payload })
      : f.app.inject({ method: 'POST', url: '/api/team-chat/exchange', ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const cases: Array<[unknown, string]> = [
    [undefined, M.exchangeFieldsRequired],
    ['[1]', M.exchangeFieldsRequired],
    ['"x"', M.exchangeFieldsRequired],
    ['{"teamId": ', M.exchangeFieldsRequired],
  ];
  for (const field of ['teamId', 'fromAgentId', 'toAgentId', 'topic'] as const) {
    const { [field]: _omit, ...missing } = good;
    cases.push([missing, M.exchangeFieldsRequired]);
    for (const wrong of ['', '  ', 7, null, ['x']]) cases.push([{ ...good, [field]: wrong }, M.exchangeFieldsRequired]);
  }
  cases.push([{ ...good, toAgentId: f.ann }, M.exchangeSameAgent]);
  for (const turns of [0, 11, 2.5, '3', null, -1]) cases.push([{ ...good, turns }, M.exchangeTurns]);
  for (const [payload, error] of cases) {
    const res = await send(payload);
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.deepEqual(res.json(), { error }, JSON.stringify(payload));
  }
  const tooLong = await send({ ...good, topic: 'x'.repeat(8001) });
  assert.equal(tooLong.statusCode, 400);
  assert.match(tooLong.json<{ error: string }>().error, /^topic/);
  assert.equal(f.runtime.deps.db.prepare('SELECT COUNT(*) FROM executions').pluck().get(), 0, 'no run started');
  assert.deepEqual((await room(f, `?teamId=${f.teamId}`)).posts, []);
});

void test('Teams → POST /api/team-chat/exchange: 404 team not found, 404 agent is not on this team, 404 team is not server-orchestrated', async (t) => {
  const f = await chatFixture(t);
  const other = await createTeam(f.app, { name: 'Other' });
  await assign(f.app, other, 'zed-1', 'Zed');
  await assign(f.app, f.teamId, 'old-1', 'Old');
  const archived = await f.app.inject({ method: 'PATCH', url: '/api/agents/old-1', payload: { isArchived: 1 } });
  assert.equal(archived.statusCode, 200, archived.body);
  const good = { teamId: f.teamId, fromAgentId: f.ann, toAgentId: f.bob, topic: 'the launch date' };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ ...good, teamId: 'no-such-team' }, M.teamNotFound],
    [{ ...good, fromAgentId: 'zed-1' }, M.agentNotOnTeam],
    [{ ...good, toAgentId: 'zed-1' }, M.agentNotOnTeam],
    [{ ...good, toAgentId: 'nobody' }, M.agentNotOnTeam],
    [{ ...good, toAgentId: 'old-1' }, M.agentNotOnTeam],
  ];
  f.runtime.deps.settingsTable.set(`team-server-orchestrated:${f.teamId}`, 'false');
  cases.push([good, M.notOrchestrated]);
  for (const [payload, error] of cases) {
    const res = await f.app.inject({ method: 'POST', url: '/api/team-chat/exchange', payload });
    assert.equal(res.statusCode, 404, JSON.stringify(payload));
    assert.deepEqual(res.json(), { error }, JSON.stringify(payload));
  }
  assert.equal(f.runtime.deps.db.prepare('SELECT COUNT(*) FROM executions').pluck().get(), 0, 'no run started');
});

void test('Teams → POST /api/team-chat/exchange: 202 { ok: true, exchangeId }; its first turn is a run of the opening agent (turns default to 4)', async (t) => {
  const f = await chatFixture(t);
  const res = await f.app.inject({ method: 'POST', url: '/api/team-chat/exchange', payload: { teamId: f.teamId, fromAgentId: f.ann, toAgentId: f.bob, topic: '  the launch date ' } });
  assert.equal(res.statusCode, 202, res.body);
  const body = res.json<{ ok: boolean; exchangeId: string }>();
  assert.deepEqual(Object.keys(body).sort(), ['exchangeId', 'ok']);
  assert.equal(body.ok, true);
  assert.equal(typeof body.exchangeId, 'string');
  assert.ok(body.exchangeId.length > 0);
  // No gateway listens: the opening turn is tried and ends in error, as an `exchange` execution of the opening agent.
  const run = await waitFor(
    () => f.runtime.deps.db.prepare("SELECT agent_id AS agentId, trigger, status FROM executions WHERE trigger = 'exchange' AND status <> 'running'").get() as
      | { agentId: string; trigger: string; status: string }
      | undefined,
    { what: 'the exchange\'s first run to end', timeoutMs: DELIVERY_WAIT_MS },
  );
  assert.equal(run.agentId, f.ann);
  assert.equal(run.status, 'error');
});
