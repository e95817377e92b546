// Spec "Teams" → GET /api/teams/:id/chat/stream and "SSE streams" (issue 17
// #6), on a real socket: the headers, `: connected`, a catch-up of the team's
// committed rows past the cursor (`Last-Event-ID` wins, bad values are 0), a
// status snapshot per agent, then live rows (tier 1) and named frames without
// ids (tier 2: status, board, room). An unknown team gets an open stream with
// nothing but keepalives; the orchestration setting never gates the stream.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createTeamChatPosts } from '../../shared/team-chat/room/posts.ts';
import { openSse, type SseFrame } from '../helpers/http.ts';
import { waitFor } from '../helpers/wait.ts';
import { assign, chatFixture, createTeam, DELIVERY_WAIT_MS, type ChatFixture } from './team-chat-fixture.ts';

type Client = Awaited<ReturnType<typeof openSse>>;

async function listening(t: TestContext) {
  const f = await chatFixture(t);
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = f.app.server.address() as AddressInfo;
  const clients: Client[] = [];
  // Called by each test before it ends, ahead of buildTestApp's clean-up: app.close() waits for open connections.
  const closeAll = async () => {
    for (const c of clients) await c.close();
    f.runtime.deps.sse.closeAll();
  };
  const open = async (teamId: string, query = '', headers: Record<string, string> = {}) => {
    const c = await openSse(`http://127.0.0.1:${port}/api/teams/${encodeURIComponent(teamId)}/chat/stream${query}`, headers);
    clients.push(c);
    return c;
  };
  return { f, open, closeAll };
}

/** Runs `body` with a listening app, closing its streams before the test ends (app.close() waits for them). */
async function withStreams(t: TestContext, body: (s: { f: ChatFixture; open: Awaited<ReturnType<typeof listening>>['open'] }) => Promise<void>) {
  const s = await listening(t);
  try {
    await body(s);
  } finally {
    await s.closeAll();
  }
}

/** Writes one entry under `sessionKey`; returns its row id. */
function commit(f: ChatFixture, sessionKey: string, entryId: string, text = entryId): number {
  const [row] = f.runtime.deps.chatMessages.insert(sessionKey, [{ entryId, role: 'assistant', kind: 'message', text, runId: null, source: 'test' }]);
  assert.ok(row);
  return row.id;
}

const rowIds = (frames: SseFrame[]) => frames.filter((x) => x.id !== undefined).map((x) => Number(x.id));
const named = (frames: SseFrame[], event: string) =>
  frames.filter((x) => x.event === event).map((x) => JSON.parse(x.data ?? 'null') as Record<string, unknown>);

void test('Teams → GET /api/teams/:id/chat/stream: spec headers, `: connected`, the team\'s rows past since, then one status frame per agent', async (t) => {
  await withStreams(t, async ({ f, open }) => {
    const db = f.runtime.deps.db;
    db.prepare("UPDATE agents SET status = 'running' WHERE id = ?").run(f.ann);
    db.prepare("UPDATE agents SET status = 'error' WHERE id = ?").run(f.bob);
    db.prepare("UPDATE agents SET status = 'paused' WHERE id = ?").run(f.lead);
    const before = commit(f, f.key(f.lead), 'e-before');
    const mine = [commit(f, f.key(f.lead), 'e-lead'), commit(f, f.key(f.ann), 'e-ann')];
    commit(f, 'agent:lead-1:team:another-team', 'e-other-team');
    commit(f, 'agent:lead-1:main', 'e-not-a-team-key');
    mine.push(commit(f, `team:${f.teamId}`, 'e-fallback'));

    const c = await open(f.teamId, `?since=${before}`);
    await c.until((fr) => named(fr, 'status').length === 3);
    assert.equal(c.res.status, 200);
    assert.equal(c.res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(c.res.headers.get('cache-control'), 'no-cache, no-transform');
    assert.equal(c.res.headers.get('connection'), 'keep-alive');
    assert.equal(c.res.headers.get('x-accel-buffering'), 'no');
    assert.equal(c.frames[0]?.comment, 'connected', 'the first frame');
    assert.deepEqual(rowIds(c.frames), mine, 'the team\'s rows past the cursor, in order, nothing else');
    const first = c.frames.find((x) => x.id !== undefined);
    assert.equal((JSON.parse(first?.data ?? '{}') as { entryId: string }).entryId, 'e-lead', 'data is the transcript entry');
    assert.deepEqual(named(c.frames, 'status'), [
      { agentId: f.lead, status: 'idle' },
      { agentId: f.ann, status: 'running' },
      { agentId: f.bob, status: 'error' },
    ]);
    const lastRow = c.frames.findLastIndex((x) => x.id !== undefined);
    const firstStatus = c.frames.findIndex((x) => x.event === 'status');
    assert.ok(lastRow < firstStatus, 'rows first, then the status snapshot');
    for (const fr of c.frames.filter((x) => x.event !== undefined)) assert.equal(fr.id, undefined, 'named frames carry no id');
  });
});

void test('Teams → GET /api/teams/:id/chat/stream: Last-Event-ID wins over since; a negative, non-numeric or non-finite cursor replays from 0', async (t) => {
  await withStreams(t, async ({ f, open }) => {
    const ids = [commit(f, f.key(f.ann), 'a1'), commit(f, f.key(f.ann), 'a2'), commit(f, f.key(f.bob), 'b1')];
    const resumed = await open(f.teamId, `?since=${ids[2]}`, { 'Last-Event-ID': String(ids[0]) });
    await resumed.until((fr) => named(fr, 'status').length === 3);
    assert.deepEqual(rowIds(resumed.frames), ids.slice(1));
    for (const since of ['abc', '-5', 'Infinity', '1e999', '']) {
      const c = await open(f.teamId, `?since=${since}`);
      await c.until((fr) => named(fr, 'status').length === 3);
      assert.deepEqual(rowIds(c.frames), ids, `since=${since}`);
    }
    const past = await open(f.teamId, `?since=${ids[2]}`);
    await past.until((fr) => named(fr, 'status').length === 3);
    assert.deepEqual(rowIds(past.frames), [], 'nothing past the last row');
  });
});

void test('Teams → GET /api/teams/:id/chat/stream: live rows of the team\'s keys only, and `event: board` and `event: room` frames for the team', async (t) => {
  await withStreams(t, async ({ f, open }) => {
    const c = await open(f.teamId);
    await c.until((fr) => named(fr, 'status').length === 3);
    commit(f, 'agent:ann-1:team:another-team', 'live-other');
    const live = commit(f, f.key(f.ann), 'live-ann');
    await c.until((fr) => rowIds(fr).includes(live));
    assert.deepEqual(rowIds(c.frames), [live]);

    const created = await f.app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'Draft the plan', teamId: f.teamId } });
    assert.equal(created.statusCode, 200, created.body);
    const task = created.json<{ task: { id: string; createdAt: number; updatedAt: number } }>().task;
    await c.until((fr) => named(fr, 'board').length > 0);
    assert.deepEqual(named(c.frames, 'board')[0], {
      id: task.id,
      title: 'Draft the plan',
      status: 'todo',
      assigneeAgentId: null,
      parentTaskId: null,
      createdAt: task.createdAt,
      updatedAt: task.updatedAt,
    });
    const untouched = await f.app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'Elsewhere', teamId: 'another-team' } });
    assert.equal(untouched.statusCode, 200);

    const posts = createTeamChatPosts({ db: f.runtime.deps.db, tx: f.runtime.deps.tx, eventLog: f.runtime.deps.eventLog });
    const post = posts.post({ teamId: f.teamId, authorAgentId: f.ann, text: 'Room hello', emitEvent: true });
    await c.until((fr) => named(fr, 'room').length > 0);
    assert.deepEqual(named(c.frames, 'room'), [{ id: post.id, authorAgentId: f.ann, text: 'Room hello', createdAt: post.createdAt, exchangeId: null }]);
    assert.equal(named(c.frames, 'board').length, 1, 'a task of another team is not framed here');
  });
});

void test('Teams → GET /api/teams/:id/chat/stream: a message\'s run shows as `event: status` frames and its meta entry as a row', async (t) => {
  await withStreams(t, async ({ f, open }) => {
    const c = await open(f.teamId);
    await c.until((fr) => named(fr, 'status').length === 3);
    const res = await f.post({ message: '@Ann status please', entryId: 'u-stream' });
    assert.equal(res.statusCode, 202);
    await c.until(
      (fr) => fr.some((x) => x.data?.includes('"kind":"meta"') === true) && named(fr, 'status').some((s) => s.agentId === f.ann && s.status === 'error'),
      DELIVERY_WAIT_MS,
    );
    const entries = c.frames.filter((x) => x.id !== undefined).map((x) => JSON.parse(x.data ?? '{}') as { entryId: string; kind: string; sessionKey: string });
    assert.equal(entries[0]?.entryId, 'u-stream', 'the user entry first');
    assert.ok(entries.every((e) => e.sessionKey === f.key(f.ann)));
    const annStatuses = named(c.frames, 'status').slice(3).filter((s) => s.agentId === f.ann).map((s) => s.status);
    assert.equal(annStatuses[annStatuses.length - 1], 'error', 'the failed delivery ends the run in error');
  });
});

void test('Teams → GET /api/teams/:id/chat/stream: an unknown team gets an open stream with no rows and no status; the orchestration setting does not gate a stream', async (t) => {
  await withStreams(t, async ({ f, open }) => {
    f.runtime.deps.settingsTable.set(`team-server-orchestrated:${f.teamId}`, 'false');
    const unknown = await open('no-such-team');
    const gated = await open(f.teamId);
    assert.equal(unknown.res.status, 200);
    await gated.until((fr) => named(fr, 'status').length === 3);
    // Rows under every key the unknown team could have, and one of the known team, in one commit each.
    commit(f, 'team:no-such-team', 'u1');
    commit(f, 'agent:lead-1:team:no-such-team', 'u2');
    const known = commit(f, f.key(f.lead), 'k1');
    await gated.until((fr) => rowIds(fr).includes(known));
    assert.deepEqual(unknown.frames, [{ comment: 'connected' }], 'the same fan-out delivered nothing to the unknown team');
  });
});

void test('Teams → GET /api/teams/:id/chat/stream: a delegation on the team\'s board is framed as created (todo), then claimed for its assignee; a team whose gate is closed keeps its board to itself', async (t) => {
  await withStreams(t, async ({ f, open }) => {
    const c = await open(f.teamId);
    await c.until((fr) => named(fr, 'status').length === 3);
    const gatedTeam = await createTeam(f.app, { name: 'Gated' });
    await assign(f.app, gatedTeam, 'gus-1', 'Gus');
    f.runtime.deps.settingsTable.set(`team-server-orchestrated:${gatedTeam}`, 'false');
    const create = async (payload: Record<string, unknown>) => {
      const res = await f.app.inject({ method: 'POST', url: '/api/tasks', payload });
      assert.equal(res.statusCode, 200, res.body);
      return res.json<{ task: { id: string } }>().task.id;
    };
    const gatedTask = await create({ title: 'Not for svc', teamId: gatedTeam, assigneeAgentId: 'gus-1' });
    const task = await create({ title: 'Write the brief', teamId: f.teamId, assigneeAgentId: f.bob, createdByAgentId: f.lead });

    const statusOf = (id: string) => f.runtime.deps.domain.board.get(id)?.status;
    await waitFor(() => statusOf(task) === 'in_progress', { what: 'the delegation to be claimed for its assignee' });
    await c.until((fr) => named(fr, 'board').some((b) => b.id === task && b.status === 'in_progress'));
    const frames = named(c.frames, 'board').filter((b) => b.id === task);
    assert.equal(frames[0]?.status, 'todo', 'the first frame shows the task as created, before the claim');
    assert.equal(frames[0]?.assigneeAgentId, f.bob);
    const run = f.runtime.deps.db.prepare('SELECT agent_id AS agentId, trigger FROM executions WHERE task_id = ?').get(task);
    assert.deepEqual(run, { agentId: f.bob, trigger: 'delegation' });
    // The gated team's task changed first, in the same fan-out: had it been handed over, it would be claimed by now.
    assert.equal(statusOf(gatedTask), 'todo');
    assert.equal(f.runtime.deps.db.prepare('SELECT COUNT(*) FROM executions WHERE task_id = ?').pluck().get(gatedTask), 0);
  });
});
