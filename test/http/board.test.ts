// The task board over HTTP (svc's design; shared/board/): tasks, the status
// rules, atomic claims, dependencies, delegation and comments, through the
// real app and a real SQLite file. Every mutation must leave exactly its one
// orchestration event, and every refusal must leave neither row nor event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type Database from 'better-sqlite3';
import { createBoard } from '../../shared/board/board.ts';
import type { Task, TaskComment } from '../../shared/board/types.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { DomainError } from '../../shared/errors.ts';
import type { EventLog } from '../../shared/events/event-log.ts';
import type { EventInput, EventRow } from '../../shared/events/types.ts';
import type { Runtime } from '../../supervisor/runtime.ts';
import { buildTestApp } from '../helpers/app.ts';

type EventView = Pick<EventRow, 'seq' | 'kind' | 'teamId' | 'taskId' | 'agentId' | 'runtime'> & { data: Record<string, unknown> };

const BODY_REQUIRED = 'JSON object body required';

function allEvents(runtime: Runtime): EventView[] {
  const rows = runtime.deps.db
    .prepare('SELECT seq, kind, team_id AS teamId, task_id AS taskId, agent_id AS agentId, runtime, data FROM events ORDER BY seq')
    .all() as Array<Omit<EventView, 'data'> & { data: string }>;
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
}

const eventsOf = (runtime: Runtime, taskId: string) => allEvents(runtime).filter((e) => e.taskId === taskId);

/** What a refusal must leave untouched: every board row and every event. */
function snapshotDb(runtime: Runtime): string {
  const db = runtime.deps.db;
  return JSON.stringify({
    tasks: db.prepare('SELECT * FROM tasks ORDER BY id').all(),
    deps: db.prepare('SELECT * FROM task_dependencies ORDER BY task_id, depends_on_task_id').all(),
    comments: db.prepare('SELECT * FROM task_comments ORDER BY id').all(),
    events: db.prepare('SELECT seq FROM events ORDER BY seq').all(),
  });
}

async function call(app: FastifyInstance, opts: InjectOptions) {
  const res = await app.inject(opts);
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

async function createTask(app: FastifyInstance, payload: Record<string, unknown>): Promise<Task> {
  const res = await call(app, { method: 'POST', url: '/api/tasks', payload });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.task as Task;
}

async function patchTask(app: FastifyInstance, id: string, payload: Record<string, unknown>) {
  return call(app, { method: 'PATCH', url: `/api/tasks/${id}`, payload });
}

async function claim(app: FastifyInstance, id: string, agentId: string) {
  return call(app, { method: 'POST', url: `/api/tasks/${id}/claim`, payload: { agentId } });
}

async function link(app: FastifyInstance, id: string, dependsOnTaskId: string) {
  return call(app, { method: 'POST', url: `/api/tasks/${id}/dependencies`, payload: { dependsOnTaskId } });
}

/** Moves a task to `status` along allowed moves, assigning `agent` where needed. */
async function moveTo(app: FastifyInstance, id: string, status: 'in_progress' | 'in_review' | 'done', agent = 'agent-x') {
  const path = { in_progress: ['in_progress'], in_review: ['in_progress', 'in_review'], done: ['in_progress', 'done'] }[status];
  for (const s of path) {
    const res = await patchTask(app, id, s === 'in_progress' ? { status: s, assigneeAgentId: agent } : { status: s });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
}

// --- create and list ---------------------------------------------------------

void test('Board: POST /api/tasks creates a todo task with defaults and a task_created event', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const before = Date.now();
  const task = await createTask(app, { title: '  Write the report  ', teamId: 'team-1', status: 'done' });
  assert.match(task.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
  assert.equal(task.title, 'Write the report', 'the title is trimmed');
  assert.equal(task.status, 'todo', 'a client cannot create a task in another status');
  assert.deepEqual(
    { ...task, id: '', createdAt: 0, updatedAt: 0 },
    {
      id: '', teamId: 'team-1', title: 'Write the report', description: '', status: 'todo', assigneeAgentId: null,
      createdByAgentId: null, parentTaskId: null, runtime: null, costUsd: 0, createdAt: 0, updatedAt: 0,
      claimedAt: null, completedAt: null, dependsOn: [], origin: 'api',
    },
  );
  assert.ok(task.createdAt >= before && task.updatedAt === task.createdAt);

  const events = allEvents(runtime);
  assert.equal(events.length, 1);
  assert.deepEqual(events[0], {
    seq: events[0]?.seq, kind: 'task_created', teamId: 'team-1', taskId: task.id, agentId: null, runtime: null,
    data: { title: 'Write the report', status: 'todo', assigneeAgentId: null, parentTaskId: null },
  });

  const got = await call(app, { method: 'GET', url: `/api/tasks/${task.id}` });
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, { task, openBlockers: [] });
});

void test('Board: a task created for an agent takes its runtime; dependsOn links and logs each edge', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  assert.equal((await call(app, { method: 'POST', url: '/api/agents', payload: { id: 'coder', name: 'Coder', runtime: 'cli-a' } })).status, 200);
  const a = await createTask(app, { title: 'a' });
  const b = await createTask(app, { title: 'b' });
  const c = await createTask(app, {
    title: 'c', assigneeAgentId: 'coder', createdByAgentId: 'lead', dependsOn: [a.id, b.id, a.id], description: 'details',
  });
  assert.equal(c.runtime, 'cli-a');
  assert.equal(c.assigneeAgentId, 'coder');
  assert.equal(c.createdByAgentId, 'lead');
  assert.equal(c.description, 'details');
  assert.equal(c.status, 'todo');
  assert.deepEqual([...c.dependsOn].sort(), [a.id, b.id].sort(), 'a repeated id links once');
  const evs = eventsOf(runtime, c.id);
  assert.deepEqual(evs.map((e) => e.kind), ['task_created', 'dep_linked', 'dep_linked']);
  assert.ok(evs.every((e) => e.agentId === 'lead' && e.runtime === 'cli-a'));
  assert.deepEqual(evs.slice(1).map((e) => e.data), [{ dependsOnTaskId: a.id, linked: true }, { dependsOnTaskId: b.id, linked: true }]);

  const explicit = await createTask(app, { title: 'd', assigneeAgentId: 'coder', runtime: 'native' });
  assert.equal(explicit.runtime, 'native', 'a given runtime wins over the assignee\'s');
});

void test('Board: GET /api/tasks filters by team, status, assignee and parent, in creation order, with a limit', async (t) => {
  const { app } = await buildTestApp(t);
  const t1 = await createTask(app, { title: 't1', teamId: 'red' });
  const t2 = await createTask(app, { title: 't2', teamId: 'red', assigneeAgentId: 'amy' });
  const t3 = await createTask(app, { title: 't3', teamId: 'blue', assigneeAgentId: 'amy' });
  const t4 = await createTask(app, { title: 't4', parentTaskId: t1.id });
  await moveTo(app, t2.id, 'in_progress', 'amy');

  const ids = async (qs: string) => {
    const res = await call(app, { method: 'GET', url: `/api/tasks${qs}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.tasks as Task[]).map((x) => x.title);
  };
  assert.deepEqual(await ids(''), ['t1', 't2', 't3', 't4']);
  assert.deepEqual(await ids('?teamId=red'), ['t1', 't2', 't4']);
  assert.deepEqual(await ids('?teamId=red&status=todo'), ['t1', 't4']);
  assert.deepEqual(await ids('?status=in_progress'), ['t2']);
  assert.deepEqual(await ids('?assigneeAgentId=amy'), ['t2', 't3']);
  assert.deepEqual(await ids('?assigneeAgentId=nobody'), []);
  assert.deepEqual(await ids(`?parentTaskId=${t1.id}`), ['t4']);
  assert.deepEqual(await ids('?limit=2'), ['t1', 't2']);
  assert.deepEqual(await ids('?status=todo&limit=1'), ['t1']);
  assert.equal(t4.teamId, 'red', 'a subtask inherits its parent\'s team');
  assert.equal(t3.teamId, 'blue');

  for (const qs of ['?status=bogus', '?status=', '?limit=0', '?limit=2001', '?limit=1.5', '?limit=x']) {
    const res = await call(app, { method: 'GET', url: `/api/tasks${qs}` });
    assert.equal(res.status, 400, qs);
    assert.match(String(res.body.error), qs.startsWith('?status') ? /^status: / : /^limit: /, qs);
  }
});

void test('Board: GET /api/tasks/:id answers 404 for an unknown task and lists open blockers', async (t) => {
  const { app } = await buildTestApp(t);
  const missing = await call(app, { method: 'GET', url: '/api/tasks/no-such-task' });
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { error: 'task not found' });
  const blank = await call(app, { method: 'GET', url: '/api/tasks/%20' });
  assert.deepEqual([blank.status, blank.body], [400, { error: 'task id required' }]);

  const a = await createTask(app, { title: 'a' });
  const b = await createTask(app, { title: 'b' });
  const c = await createTask(app, { title: 'c', dependsOn: [a.id, b.id] });
  const view = async () => (await call(app, { method: 'GET', url: `/api/tasks/${c.id}` })).body;
  assert.deepEqual((await view()).openBlockers, [a.id, b.id].sort());
  await moveTo(app, a.id, 'done');
  assert.deepEqual((await view()).openBlockers, [b.id], 'a done dependency no longer blocks');
  await moveTo(app, b.id, 'in_review');
  assert.deepEqual((await view()).openBlockers, [b.id], 'in review is not done');
  assert.equal((await patchTask(app, b.id, { status: 'done' })).status, 200);
  assert.deepEqual((await view()).openBlockers, []);
});

// --- PATCH and the status rules --------------------------------------------

void test('Board: PATCH applies allowed moves and records each as status_changed', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'work', teamId: 'team-9' });

  let res = await patchTask(app, task.id, { status: 'in_progress', assigneeAgentId: 'amy', actorAgentId: 'lead' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const started = res.body.task as Task;
  assert.equal(started.status, 'in_progress');
  assert.equal(started.assigneeAgentId, 'amy');
  assert.ok(started.claimedAt !== null, 'starting work sets claimedAt');
  assert.equal(started.completedAt, null);

  res = await patchTask(app, task.id, { status: 'in_review' });
  assert.equal((res.body.task as Task).status, 'in_review');
  assert.equal((res.body.task as Task).claimedAt, started.claimedAt, 'claimedAt is kept');
  res = await patchTask(app, task.id, { status: 'in_progress' });
  assert.equal((res.body.task as Task).status, 'in_progress', 'review can send work back');
  res = await patchTask(app, task.id, { status: 'done' });
  const done = res.body.task as Task;
  assert.equal(done.status, 'done');
  assert.ok(done.completedAt !== null && done.completedAt >= started.claimedAt!, 'done sets completedAt');

  const evs = eventsOf(runtime, task.id).filter((e) => e.kind === 'status_changed');
  assert.deepEqual(evs.map((e) => [e.data.from, e.data.to]), [
    ['todo', 'in_progress'], ['in_progress', 'in_review'], ['in_review', 'in_progress'], ['in_progress', 'done'],
  ]);
  assert.equal(evs[0]?.agentId, 'lead', 'the actor is recorded');
  assert.equal(evs[1]?.agentId, null, 'a person on the dashboard');
  assert.ok(evs.every((e) => e.teamId === 'team-9'));
  assert.deepEqual(evs[0]?.data.changes, { assigneeAgentId: 'amy' });
  assert.equal(evs[0]?.data.assigneeAgentId, 'amy');
  assert.equal(evs[3]?.data.status, 'done');

  const after = (await call(app, { method: 'GET', url: `/api/tasks/${task.id}` })).body.task as Task;
  assert.deepEqual(after, done);
});

void test('Board: PATCH refuses moves outside the transition table with 409, changing nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const todo = await createTask(app, { title: 'todo', assigneeAgentId: 'amy' });
  const done = await createTask(app, { title: 'done' });
  await moveTo(app, done.id, 'done');
  const cancelled = await createTask(app, { title: 'cancelled' });
  assert.equal((await patchTask(app, cancelled.id, { status: 'cancelled' })).status, 200);

  const refused: Array<[Task, string, string]> = [
    [todo, 'done', 'cannot move a task from todo to done'],
    [todo, 'in_review', 'cannot move a task from todo to in_review'],
    [done, 'todo', 'cannot move a task from done to todo'],
    [done, 'in_progress', 'cannot move a task from done to in_progress'],
    [done, 'cancelled', 'cannot move a task from done to cancelled'],
    [cancelled, 'in_progress', 'cannot move a task from cancelled to in_progress'],
    [cancelled, 'done', 'cannot move a task from cancelled to done'],
  ];
  for (const [task, status, error] of refused) {
    const before = snapshotDb(runtime);
    // A field edit riding on a refused move must not be applied either.
    const res = await patchTask(app, task.id, { status, title: 'renamed' });
    assert.equal(res.status, 409, `${task.title} -> ${status}`);
    const from = (await call(app, { method: 'GET', url: `/api/tasks/${task.id}` })).body.task as Task;
    assert.deepEqual(res.body, { error, from: from.status, to: status });
    assert.equal(snapshotDb(runtime), before, `${task.title} -> ${status}: nothing written`);
  }
});

void test('Board: in_progress needs an assignee; blocked and in_progress need unfinished dependencies done', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'unassigned' });
  let before = snapshotDb(runtime);
  let res = await patchTask(app, task.id, { status: 'in_progress' });
  assert.deepEqual([res.status, res.body], [409, { error: 'a task needs an assignee to be in progress', from: 'todo', to: 'in_progress' }]);
  res = await patchTask(app, task.id, { status: 'in_progress', assigneeAgentId: null });
  assert.equal(res.status, 409);
  assert.equal(snapshotDb(runtime), before);

  // todo -> blocked -> in_progress is allowed once the assignee is there.
  assert.equal((await patchTask(app, task.id, { status: 'blocked' })).status, 200);
  res = await patchTask(app, task.id, { status: 'in_progress' });
  assert.equal(res.body.error, 'a task needs an assignee to be in progress');
  res = await patchTask(app, task.id, { status: 'in_progress', assigneeAgentId: 'amy' });
  assert.equal(res.status, 200);

  // Unassigning a task that is in progress would leave it in progress with nobody on it.
  before = snapshotDb(runtime);
  res = await patchTask(app, task.id, { assigneeAgentId: null });
  assert.deepEqual([res.status, res.body.error], [409, 'a task needs an assignee to be in progress']);
  assert.equal(snapshotDb(runtime), before);

  // Dependencies: starting by PATCH is refused while one is unfinished.
  const dep = await createTask(app, { title: 'dep' });
  const waiting = await createTask(app, { title: 'waiting', dependsOn: [dep.id], assigneeAgentId: 'bo' });
  before = snapshotDb(runtime);
  res = await patchTask(app, waiting.id, { status: 'in_progress' });
  assert.deepEqual([res.status, res.body], [409, { error: 'task is blocked by unfinished dependencies', from: 'todo', to: 'in_progress' }]);
  assert.equal(snapshotDb(runtime), before);
  await moveTo(app, dep.id, 'done');
  res = await patchTask(app, waiting.id, { status: 'in_progress' });
  assert.equal(res.status, 200);
});

void test('Board: field edits are status_changed with from === to and the changes; a no-op writes nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'old', description: 'd' });
  const done = await createTask(app, { title: 'finished' });
  await moveTo(app, done.id, 'done');
  const n = allEvents(runtime).length;

  const res = await patchTask(app, task.id, { title: 'new', description: '', runtime: 'native', actorAgentId: 'amy' });
  assert.equal(res.status, 200);
  const edited = res.body.task as Task;
  assert.deepEqual([edited.title, edited.description, edited.runtime, edited.status], ['new', '', 'native', 'todo']);
  const ev = allEvents(runtime).at(-1);
  assert.equal(allEvents(runtime).length, n + 1);
  assert.equal(ev?.kind, 'status_changed');
  assert.equal(ev?.agentId, 'amy');
  assert.equal(ev?.runtime, 'native');
  assert.deepEqual(ev?.data, {
    title: 'new', status: 'todo', assigneeAgentId: null, parentTaskId: null,
    from: 'todo', to: 'todo', changes: { title: 'new', description: '', runtime: 'native' },
  });

  // Same values and the same status: nothing to record.
  const before = snapshotDb(runtime);
  const same = await patchTask(app, task.id, { title: 'new', status: 'todo' });
  assert.equal(same.status, 200);
  assert.deepEqual(same.body.task, edited);
  assert.equal(snapshotDb(runtime), before);

  // A done task can be renamed but stays done, keeping completedAt.
  const renamed = await patchTask(app, done.id, { title: 'finished (v2)', status: 'done' });
  assert.equal(renamed.status, 200);
  const doneNow = (await call(app, { method: 'GET', url: `/api/tasks/${done.id}` })).body.task as Task;
  assert.equal(doneNow.status, 'done');
  assert.equal((renamed.body.task as Task).completedAt, doneNow.completedAt);
  assert.ok(doneNow.completedAt !== null);
});

void test('Board: cancelled sets completedAt and cancelled -> todo reopens the task', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'maybe' });
  await moveTo(app, task.id, 'in_progress', 'amy');
  let res = await patchTask(app, task.id, { status: 'cancelled' });
  assert.equal(res.status, 200);
  assert.equal((res.body.task as Task).status, 'cancelled');
  assert.ok((res.body.task as Task).completedAt !== null);

  res = await patchTask(app, task.id, { status: 'todo' });
  assert.equal(res.status, 200);
  const reopened = res.body.task as Task;
  assert.equal(reopened.status, 'todo');
  assert.equal(reopened.completedAt, null, 'a reopened task is not completed');
  assert.deepEqual(eventsOf(runtime, task.id).filter((e) => e.kind === 'status_changed').map((e) => `${String(e.data.from)}>${String(e.data.to)}`),
    ['todo>in_progress', 'in_progress>cancelled', 'cancelled>todo']);
  // Reopened and still assigned to amy: amy can claim it again.
  res = await claim(app, task.id, 'amy');
  assert.equal(res.status, 200);
});

void test('Board: PATCH on an unknown task is 404 and bad input is 400', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'x' });
  const before = snapshotDb(runtime);
  const missing = await patchTask(app, 'nope', { title: 'y' });
  assert.deepEqual([missing.status, missing.body], [404, { error: 'task not found' }]);
  const cases: Array<[unknown, RegExp]> = [
    [{ status: 'finished' }, /^status: /],
    [{ title: '' }, /^title is required$/],
    [{ title: 'x'.repeat(501) }, /^title must be at most 500 characters$/],
    [{ title: 42 }, /^title: /],
    [{ assigneeAgentId: '' }, /^assigneeAgentId: /],
    [{ runtime: 'Not A Runtime' }, /^runtime must be a lowercase id/],
  ];
  for (const [payload, error] of cases) {
    const res = await patchTask(app, task.id, payload as Record<string, unknown>);
    assert.equal(res.status, 400, JSON.stringify(payload));
    assert.match(String(res.body.error), error, JSON.stringify(payload));
  }
  assert.equal(snapshotDb(runtime), before);
});

// --- claims -----------------------------------------------------------------

void test('Board: a claim wins once: in_progress, assignee, claimedAt, one task_claimed event', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await call(app, { method: 'POST', url: '/api/agents', payload: { id: 'amy', name: 'Amy', runtime: 'cli-b' } });
  const task = await createTask(app, { title: 'claim me', teamId: 'team-c' });
  const before = Date.now();
  const res = await claim(app, task.id, 'amy');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const claimed = res.body.task as Task;
  assert.equal(claimed.status, 'in_progress');
  assert.equal(claimed.assigneeAgentId, 'amy');
  assert.equal(claimed.runtime, 'cli-b', 'an unset runtime comes from the claiming agent');
  assert.ok(claimed.claimedAt !== null && claimed.claimedAt >= before);
  assert.equal(claimed.updatedAt, claimed.claimedAt);

  const claims = allEvents(runtime).filter((e) => e.kind === 'task_claimed');
  assert.equal(claims.length, 1);
  assert.deepEqual(claims[0], {
    seq: claims[0]?.seq, kind: 'task_claimed', teamId: 'team-c', taskId: task.id, agentId: 'amy', runtime: 'cli-b',
    data: { title: 'claim me', status: 'in_progress', assigneeAgentId: 'amy', parentTaskId: null, from: 'todo', to: 'in_progress' },
  });

  const snap = snapshotDb(runtime);
  for (const agent of ['bo', 'amy']) {
    const again = await claim(app, task.id, agent);
    assert.deepEqual([again.status, again.body], [409, { error: 'task already claimed' }], agent);
  }
  await patchTask(app, task.id, { status: 'in_review' });
  const review = await claim(app, task.id, 'bo');
  assert.deepEqual([review.status, review.body], [409, { error: 'task already claimed' }]);
  assert.equal(allEvents(runtime).filter((e) => e.kind === 'task_claimed').length, 1);
  assert.notEqual(snapshotDb(runtime), snap, 'the review move was written');
});

void test('Board: claims refused for another agent\'s task, blocked tasks and closed tasks', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const mine = await createTask(app, { title: 'for amy', assigneeAgentId: 'amy' });
  let before = snapshotDb(runtime);
  let res = await claim(app, mine.id, 'bo');
  assert.deepEqual([res.status, res.body], [409, { error: 'task is assigned to another agent' }]);
  assert.equal(snapshotDb(runtime), before);
  res = await claim(app, mine.id, 'amy');
  assert.equal(res.status, 200, 'the assignee may claim');

  const dep1 = await createTask(app, { title: 'dep1' });
  const dep2 = await createTask(app, { title: 'dep2' });
  const waiting = await createTask(app, { title: 'waiting', dependsOn: [dep1.id, dep2.id] });
  before = snapshotDb(runtime);
  res = await claim(app, waiting.id, 'bo');
  assert.equal(res.status, 409);
  assert.deepEqual(res.body, { error: 'task is blocked by unfinished dependencies', blockers: [dep1.id, dep2.id].sort() });
  assert.equal(snapshotDb(runtime), before);
  await moveTo(app, dep1.id, 'done');
  res = await claim(app, waiting.id, 'bo');
  assert.deepEqual(res.body, { error: 'task is blocked by unfinished dependencies', blockers: [dep2.id] });
  // A cancelled dependency is not done: still blocking.
  assert.equal((await patchTask(app, dep2.id, { status: 'cancelled' })).status, 200);
  assert.equal((await claim(app, waiting.id, 'bo')).status, 409);
  assert.equal((await patchTask(app, dep2.id, { status: 'todo' })).status, 200);
  await moveTo(app, dep2.id, 'done');
  res = await claim(app, waiting.id, 'bo');
  assert.equal(res.status, 200, 'claimable once every dependency is done');
  assert.equal((res.body.task as Task).assigneeAgentId, 'bo');

  const closed = await createTask(app, { title: 'closed' });
  await moveTo(app, closed.id, 'done');
  const blocked = await createTask(app, { title: 'blocked' });
  await patchTask(app, blocked.id, { status: 'blocked' });
  const cancelled = await createTask(app, { title: 'cancelled' });
  await patchTask(app, cancelled.id, { status: 'cancelled' });
  before = snapshotDb(runtime);
  for (const [task, status] of [[closed, 'done'], [blocked, 'blocked'], [cancelled, 'cancelled']] as const) {
    res = await claim(app, task.id, 'bo');
    assert.deepEqual([res.status, res.body], [409, { error: `cannot claim a task in status ${status}` }]);
  }
  res = await claim(app, 'no-such-task', 'bo');
  assert.deepEqual([res.status, res.body], [404, { error: 'task not found' }]);
  for (const payload of [{}, { agentId: '' }, { agentId: 7 }]) {
    res = await call(app, { method: 'POST', url: `/api/tasks/${blocked.id}/claim`, payload });
    assert.equal(res.status, 400, JSON.stringify(payload));
    assert.match(String(res.body.error), /^agentId: /);
  }
  assert.equal(snapshotDb(runtime), before);
});

void test('Board: concurrent HTTP claims on one task have exactly one winner', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'contested' });
  const agents = Array.from({ length: 8 }, (_, i) => `agent-${i}`);
  const results = await Promise.all(agents.map((a) => claim(app, task.id, a)));
  const winners = results.filter((r) => r.status === 200);
  assert.equal(winners.length, 1);
  assert.ok(results.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.error === 'task already claimed'));
  const winner = (winners[0]?.body.task as Task).assigneeAgentId;
  const claims = eventsOf(runtime, task.id).filter((e) => e.kind === 'task_claimed');
  assert.deepEqual(claims.map((e) => e.agentId), [winner]);
});

// --- dependencies -----------------------------------------------------------

void test('Board: dependencies link once, unlink, and refuse self-links, cycles and unknown tasks', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const a = await createTask(app, { title: 'a', teamId: 'team-d' });
  const b = await createTask(app, { title: 'b' });
  const c = await createTask(app, { title: 'c' });

  let res = await link(app, a.id, b.id);
  assert.equal(res.status, 200);
  assert.equal(res.body.created, true);
  assert.deepEqual((res.body.task as Task).dependsOn, [b.id]);
  assert.ok((res.body.task as Task).updatedAt >= a.updatedAt);
  let linked = eventsOf(runtime, a.id).filter((e) => e.kind === 'dep_linked');
  assert.equal(linked.length, 1);
  assert.deepEqual([linked[0]?.teamId, linked[0]?.data], ['team-d', { dependsOnTaskId: b.id, linked: true }]);

  let before = snapshotDb(runtime);
  res = await link(app, a.id, b.id);
  assert.equal(res.status, 200);
  assert.equal(res.body.created, false);
  assert.deepEqual((res.body.task as Task).dependsOn, [b.id]);
  assert.equal(snapshotDb(runtime), before, 'a duplicate link writes no row, no event and no timestamp');

  res = await link(app, a.id, a.id);
  assert.deepEqual([res.status, res.body], [409, { error: 'a task cannot depend on itself' }]);
  assert.equal((await link(app, b.id, c.id)).status, 200);
  before = snapshotDb(runtime);
  res = await link(app, c.id, a.id);
  assert.deepEqual([res.status, res.body], [409, { error: 'dependency would create a cycle' }]);
  res = await link(app, b.id, a.id);
  assert.deepEqual([res.status, res.body], [409, { error: 'dependency would create a cycle' }]);
  assert.equal(snapshotDb(runtime), before);
  assert.equal((await link(app, a.id, c.id)).status, 200, 'a second path to c is not a cycle');

  res = await link(app, 'nope', a.id);
  assert.deepEqual([res.status, res.body], [404, { error: 'task not found' }]);
  res = await link(app, a.id, 'nope');
  assert.deepEqual([res.status, res.body], [404, { error: 'dependency task not found' }]);
  for (const payload of [{}, { dependsOnTaskId: '' }, { dependsOnTaskId: 5 }]) {
    const bad = await call(app, { method: 'POST', url: `/api/tasks/${a.id}/dependencies`, payload });
    assert.equal(bad.status, 400, JSON.stringify(payload));
    assert.match(String(bad.body.error), /^dependsOnTaskId: /);
  }

  // Unlink: removed once, logged as dep_linked with linked:false; then the cycle is allowed.
  res = await call(app, { method: 'DELETE', url: `/api/tasks/${b.id}/dependencies/${c.id}` });
  assert.equal(res.status, 200);
  assert.equal(res.body.removed, true);
  assert.deepEqual((res.body.task as Task).dependsOn, []);
  const unlinked = eventsOf(runtime, b.id).filter((e) => e.kind === 'dep_linked').at(-1);
  assert.deepEqual(unlinked?.data, { dependsOnTaskId: c.id, linked: false });
  before = snapshotDb(runtime);
  res = await call(app, { method: 'DELETE', url: `/api/tasks/${b.id}/dependencies/${c.id}` });
  assert.deepEqual([res.status, res.body.removed], [200, false]);
  assert.equal(snapshotDb(runtime), before);
  res = await call(app, { method: 'DELETE', url: `/api/tasks/nope/dependencies/${c.id}` });
  assert.deepEqual([res.status, res.body], [404, { error: 'task not found' }]);
  assert.equal((await link(app, c.id, b.id)).status, 200, 'c -> b is fine once b no longer waits for c');
  linked = eventsOf(runtime, c.id).filter((e) => e.kind === 'dep_linked');
  assert.equal(linked.length, 1);
});

// --- delegation ---------------------------------------------------------------

void test('Board: delegation creates an assigned child task and a task_created event marked delegation', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await call(app, { method: 'POST', url: '/api/agents', payload: { id: 'helper', name: 'Helper', runtime: 'native' } });
  const parent = await createTask(app, { title: 'parent', teamId: 'team-p' });
  const res = await call(app, {
    method: 'POST', url: `/api/tasks/${parent.id}/delegate`,
    payload: { fromAgentId: 'lead', toAgentId: 'helper', title: ' sub-task ', description: 'do the part' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const child = res.body.task as Task;
  assert.notEqual(child.id, parent.id);
  assert.deepEqual(
    [child.title, child.description, child.status, child.parentTaskId, child.createdByAgentId, child.assigneeAgentId, child.teamId, child.runtime],
    ['sub-task', 'do the part', 'todo', parent.id, 'lead', 'helper', 'team-p', 'native'],
  );
  const evs = eventsOf(runtime, child.id);
  assert.equal(evs.length, 1);
  assert.deepEqual(evs[0], {
    seq: evs[0]?.seq, kind: 'task_created', teamId: 'team-p', taskId: child.id, agentId: 'lead', runtime: 'native',
    data: {
      title: 'sub-task', status: 'todo', assigneeAgentId: 'helper', parentTaskId: parent.id,
      delegation: true, fromAgentId: 'lead', toAgentId: 'helper',
    },
  });
  assert.deepEqual(eventsOf(runtime, parent.id).map((e) => e.kind), ['task_created'], 'the parent is not touched');
  const children = (await call(app, { method: 'GET', url: `/api/tasks?parentTaskId=${parent.id}` })).body.tasks as Task[];
  assert.deepEqual(children.map((c) => c.id), [child.id]);

  // The delegate claims its child; someone else cannot.
  assert.equal((await claim(app, child.id, 'other')).body.error, 'task is assigned to another agent');
  assert.equal((await claim(app, child.id, 'helper')).status, 200);
});

void test('Board: delegation refuses unknown and closed parents and bad input, writing nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const done = await createTask(app, { title: 'done' });
  await moveTo(app, done.id, 'done');
  const cancelled = await createTask(app, { title: 'cancelled' });
  await patchTask(app, cancelled.id, { status: 'cancelled' });
  const open = await createTask(app, { title: 'open' });
  const before = snapshotDb(runtime);
  const delegate = (id: string, payload: unknown) => call(app, { method: 'POST', url: `/api/tasks/${id}/delegate`, payload: payload as Record<string, unknown> });
  const ok = { fromAgentId: 'a', toAgentId: 'b', title: 'sub' };

  let res = await delegate('nope', ok);
  assert.deepEqual([res.status, res.body], [404, { error: 'task not found' }]);
  res = await delegate(done.id, ok);
  assert.deepEqual([res.status, res.body], [409, { error: 'cannot delegate from a task in status done' }]);
  res = await delegate(cancelled.id, ok);
  assert.deepEqual([res.status, res.body], [409, { error: 'cannot delegate from a task in status cancelled' }]);
  for (const [payload, error] of [
    [{ toAgentId: 'b', title: 'sub' }, /^fromAgentId: /],
    [{ fromAgentId: 'a', title: 'sub' }, /^toAgentId: /],
    [{ fromAgentId: 'a', toAgentId: 'b' }, /^title: /],
    [{ ...ok, title: '   ' }, /^title is required$/],
    [{ ...ok, description: 'x'.repeat(20_001) }, /^description must be at most 20000 characters$/],
  ] as const) {
    res = await delegate(open.id, payload);
    assert.equal(res.status, 400, JSON.stringify(payload));
    assert.match(String(res.body.error), error);
  }
  assert.equal(snapshotDb(runtime), before);
});

// --- comments -------------------------------------------------------------------

void test('Board: comments are listed in order and each adds a comment_added event', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'discuss', teamId: 'team-k' });
  const bodies = ['first', 'second', 'third', 'fourth'];
  const made: TaskComment[] = [];
  for (const [i, body] of bodies.entries()) {
    const res = await call(app, {
      method: 'POST', url: `/api/tasks/${task.id}/comments`,
      payload: i % 2 === 0 ? { body: `  ${body}  `, authorAgentId: 'amy' } : { body },
    });
    assert.equal(res.status, 200);
    made.push(res.body.comment as TaskComment);
  }
  assert.deepEqual(made.map((c) => [c.body, c.authorAgentId, c.taskId]), [
    ['first', 'amy', task.id], ['second', null, task.id], ['third', 'amy', task.id], ['fourth', null, task.id],
  ]);
  const listed = await call(app, { method: 'GET', url: `/api/tasks/${task.id}/comments` });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body, { comments: made });

  const evs = eventsOf(runtime, task.id).filter((e) => e.kind === 'comment_added');
  assert.deepEqual(evs.map((e) => [e.agentId, e.teamId, e.data]), made.map((c) => [c.authorAgentId, 'team-k', { commentId: c.id, length: c.body.length }]));
  const current = (await call(app, { method: 'GET', url: `/api/tasks/${task.id}` })).body.task as Task;
  assert.equal(current.updatedAt, made.at(-1)?.createdAt, 'a comment touches the task');

  const other = await createTask(app, { title: 'quiet' });
  assert.deepEqual((await call(app, { method: 'GET', url: `/api/tasks/${other.id}/comments` })).body, { comments: [] });
});

void test('Board: comments on unknown tasks are 404 and bad comments 400, writing nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'x' });
  const before = snapshotDb(runtime);
  let res = await call(app, { method: 'GET', url: '/api/tasks/nope/comments' });
  assert.deepEqual([res.status, res.body], [404, { error: 'task not found' }]);
  res = await call(app, { method: 'POST', url: '/api/tasks/nope/comments', payload: { body: 'hi' } });
  assert.deepEqual([res.status, res.body], [404, { error: 'task not found' }]);
  for (const [payload, error] of [
    [{}, /^body: /],
    [{ body: '   ' }, /^body is required$/],
    [{ body: 'x'.repeat(20_001) }, /^body must be at most 20000 characters$/],
    [{ body: 'hi', authorAgentId: '' }, /^authorAgentId: /],
  ] as const) {
    res = await call(app, { method: 'POST', url: `/api/tasks/${task.id}/comments`, payload });
    assert.equal(res.status, 400, JSON.stringify(payload));
    assert.match(String(res.body.error), error);
  }
  assert.equal(snapshotDb(runtime), before);
});

// --- bad input everywhere -------------------------------------------------------

void test('Board: every body route answers a non-object body with 400 "JSON object body required" and writes nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'x' });
  const before = snapshotDb(runtime);
  const routes: Array<['POST' | 'PATCH', string]> = [
    ['POST', '/api/tasks'],
    ['PATCH', `/api/tasks/${task.id}`],
    ['POST', `/api/tasks/${task.id}/claim`],
    ['POST', `/api/tasks/${task.id}/dependencies`],
    ['POST', `/api/tasks/${task.id}/delegate`],
    ['POST', `/api/tasks/${task.id}/comments`],
  ];
  const bodies: Array<string | undefined> = [undefined, '[1,2]', '"text"', '42', 'null', 'true', '{not json'];
  for (const [method, url] of routes) {
    for (const payload of bodies) {
      const res = await app.inject({
        method, url,
        ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload }),
      });
      assert.equal(res.statusCode, 400, `${method} ${url} ${String(payload)}`);
      assert.deepEqual(res.json(), { error: BODY_REQUIRED }, `${method} ${url} ${String(payload)}`);
    }
  }
  const fieldCases: Array<[Record<string, unknown>, RegExp]> = [
    [{}, /^title: /],
    [{ title: '' }, /^title is required$/],
    [{ title: 'x'.repeat(501) }, /^title must be at most 500 characters$/],
    [{ title: 'ok', description: 5 }, /^description: /],
    [{ title: 'ok', teamId: '' }, /^teamId: /],
    [{ title: 'ok', runtime: 'UPPER' }, /^runtime must be a lowercase id/],
    [{ title: 'ok', dependsOn: 'x' }, /^dependsOn: /],
    [{ title: 'ok', dependsOn: [''] }, /^dependsOn\.0: /],
  ];
  for (const [payload, error] of fieldCases) {
    const res = await call(app, { method: 'POST', url: '/api/tasks', payload });
    assert.equal(res.status, 400, JSON.stringify(payload));
    assert.match(String(res.body.error), error, JSON.stringify(payload));
  }
  // Refusals past validation: the task row must not be left behind either.
  let res = await call(app, { method: 'POST', url: '/api/tasks', payload: { title: 'orphan', dependsOn: [task.id, 'nope'] } });
  assert.deepEqual([res.status, res.body], [404, { error: 'dependency task not found' }]);
  res = await call(app, { method: 'POST', url: '/api/tasks', payload: { title: 'orphan', parentTaskId: 'nope' } });
  assert.deepEqual([res.status, res.body], [404, { error: 'parent task not found' }]);
  assert.equal(snapshotDb(runtime), before);
});

// --- board events never come from clients ---------------------------------------

void test('Board: POST /api/obs/ingest never stores board lifecycle kinds', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const task = await createTask(app, { title: 'real' });
  const before = allEvents(runtime);
  const forged = ['task_created', 'task_claimed', 'status_changed', 'comment_added', 'dep_linked'].map((kind) => ({
    kind, taskId: task.id, agentId: 'mallory', data: { status: 'done', from: 'todo', to: 'done' },
  }));
  let res = await call(app, { method: 'POST', url: '/api/obs/ingest', payload: { events: forged } });
  assert.deepEqual([res.status, res.body], [200, { ok: true, count: 0 }]);
  assert.deepEqual(allEvents(runtime), before);

  res = await call(app, { method: 'POST', url: '/api/obs/ingest', payload: { events: [...forged, { kind: 'tool_call', taskId: task.id }] } });
  assert.deepEqual([res.status, res.body], [200, { ok: true, count: 1 }]);
  const added = allEvents(runtime).slice(before.length);
  assert.deepEqual(added.map((e) => e.kind), ['tool_call'], 'only the client kind is stored');
  const still = (await call(app, { method: 'GET', url: `/api/tasks/${task.id}` })).body.task as Task;
  assert.equal(still.status, 'todo');
});

// --- atomicity ------------------------------------------------------------------

/** An event log whose append always fails, as a full disk or a bad row would. */
function failingEventLog(): EventLog & { attempts: EventInput[] } {
  const attempts: EventInput[] = [];
  const fail = (inputs: readonly EventInput[]): never => {
    attempts.push(...inputs);
    throw new Error('event log unavailable');
  };
  return { attempts, append: (i) => fail([i]), appendMany: fail, maxSeq: () => 0 };
}

void test('Board: when the event append fails, the mutation is rolled back with it', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const { db, tx } = runtime.deps;
  const a = await createTask(app, { title: 'a' });
  const b = await createTask(app, { title: 'b' });
  const before = snapshotDb(runtime);
  const log = failingEventLog();
  const board = createBoard({ db, tx, eventLog: log });

  const attempts: Array<[string, () => unknown]> = [
    ['create', () => board.create({ title: 'never', teamId: 'team-z' })],
    ['create with deps', () => board.create({ title: 'never', dependsOn: [a.id] })],
    ['update', () => board.update(a.id, { title: 'renamed', status: 'cancelled' })],
    ['claim', () => board.claim(a.id, 'amy')],
    ['link', () => board.linkDependency(a.id, b.id)],
    ['delegate', () => board.delegate(a.id, { fromAgentId: 'x', toAgentId: 'y', title: 'never' })],
    ['comment', () => board.comment(a.id, { body: 'never' })],
  ];
  for (const [name, run] of attempts) {
    assert.throws(run, /event log unavailable/, name);
    assert.equal(snapshotDb(runtime), before, `${name}: nothing written`);
  }
  assert.equal(log.attempts.length, attempts.length, 'each mutation got as far as its event');
  assert.equal(db.inTransaction, false);
  assert.equal((db.prepare("SELECT COUNT(*) FROM tasks WHERE title = 'never'").pluck().get() as number), 0);

  // Unlink needs an edge to remove.
  assert.equal((await link(app, a.id, b.id)).status, 200);
  const linked = snapshotDb(runtime);
  assert.throws(() => board.unlinkDependency(a.id, b.id), /event log unavailable/);
  assert.equal(snapshotDb(runtime), linked);
});

void test('Board: a database failure writing the event through the real app leaves no task row', async (t) => {
  const { app, runtime, logs } = await buildTestApp(t);
  const { db } = runtime.deps;
  // A temporary trigger lives on this connection only: the app's own event log now fails.
  db.exec(`CREATE TEMP TRIGGER fail_board_events BEFORE INSERT ON main.events
           WHEN NEW.kind IN ('task_created', 'task_claimed') BEGIN SELECT RAISE(ABORT, 'events refused'); END`);
  t.after(() => {
    if (db.open) db.exec('DROP TRIGGER IF EXISTS temp.fail_board_events');
  });
  const res = await call(app, { method: 'POST', url: '/api/tasks', payload: { title: 'lost' } });
  assert.equal(res.status, 500);
  assert.deepEqual(res.body, { error: 'database error (SQLITE_CONSTRAINT_TRIGGER)' });
  assert.equal(db.prepare('SELECT COUNT(*) FROM tasks').pluck().get(), 0);
  assert.ok(logs.some((l) => l.includes('event log write failed')), 'the failed write is logged');

  // Status changes still work; claims roll back.
  db.exec('DROP TRIGGER temp.fail_board_events');
  const task = await createTask(app, { title: 'kept' });
  db.exec(`CREATE TEMP TRIGGER fail_board_events BEFORE INSERT ON main.events
           WHEN NEW.kind = 'task_claimed' BEGIN SELECT RAISE(ABORT, 'events refused'); END`);
  const before = snapshotDb(runtime);
  const claimed = await claim(app, task.id, 'amy');
  assert.equal(claimed.status, 500);
  assert.equal(snapshotDb(runtime), before);
  const view = (await call(app, { method: 'GET', url: `/api/tasks/${task.id}` })).body.task as Task;
  assert.deepEqual([view.status, view.assigneeAgentId, view.claimedAt], ['todo', null, null]);
});

void test('Board: each mutation appends its event inside its own transaction, invisible to others until commit', async (t) => {
  const { runtime } = await buildTestApp(t);
  const { db, tx, eventLog, paths } = runtime.deps;
  const reader: Db = openDatabase(paths.db, { migrate: false });
  t.after(() => reader.close());
  const readerStatus = reader.prepare('SELECT status FROM tasks WHERE id = ?').pluck() as Database.Statement<[string], string>;
  const readerEvents = reader.prepare('SELECT COUNT(*) FROM events').pluck() as Database.Statement<[], number>;
  const seen: Array<{ kind: string; inTx: boolean; writerStatus: unknown; readerStatus: unknown; readerEvents: number }> = [];
  const spy: EventLog = {
    ...eventLog,
    append(input) {
      const id = input.taskId ?? '';
      seen.push({
        kind: input.kind,
        inTx: db.inTransaction,
        writerStatus: db.prepare('SELECT status FROM tasks WHERE id = ?').pluck().get(id),
        readerStatus: readerStatus.get(id),
        readerEvents: readerEvents.get() as number,
      });
      return eventLog.append(input);
    },
  };
  const board = createBoard({ db, tx, eventLog: spy });
  const task = board.create({ title: 'watched' });
  const claimed = board.claim(task.id, 'amy');
  assert.equal(claimed.status, 'in_progress');
  assert.deepEqual(seen, [
    { kind: 'task_created', inTx: true, writerStatus: 'todo', readerStatus: undefined, readerEvents: 0 },
    { kind: 'task_claimed', inTx: true, writerStatus: 'in_progress', readerStatus: 'todo', readerEvents: 1 },
  ]);
  assert.equal(readerStatus.get(task.id), 'in_progress');
  assert.equal(readerEvents.get(), 2, 'row and event became visible together');
  const row = db.prepare('SELECT kind, task_id AS taskId, agent_id AS agentId FROM events ORDER BY seq DESC LIMIT 1').get() as EventRow;
  assert.deepEqual({ ...row }, { kind: 'task_claimed', taskId: task.id, agentId: 'amy' });
});

void test('Board: domain refusals are DomainErrors with the right kind', async (t) => {
  const { runtime } = await buildTestApp(t);
  const { board } = runtime.deps.domain;
  const task = board.create({ title: 'x' });
  const kindOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof DomainError ? `${err.kind}: ${err.message}` : `other: ${String(err)}`;
    }
    return 'accepted';
  };
  assert.equal(kindOf(() => board.update('nope', { title: 'y' })), 'not_found: task not found');
  assert.equal(kindOf(() => board.update(task.id, { status: 'done' })), 'conflict: cannot move a task from todo to done');
  assert.equal(kindOf(() => board.linkDependency(task.id, task.id)), 'conflict: a task cannot depend on itself');
  assert.equal(kindOf(() => board.comments('nope')), 'not_found: task not found');
  assert.equal(kindOf(() => board.claim(task.id, 'amy')), 'accepted');
  assert.equal(kindOf(() => board.claim(task.id, 'bo')), 'conflict: task already claimed');
});
