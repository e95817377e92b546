// The board's pure logic in the dashboard (issue 18, page 6): the moves the
// UI offers are the server's rule, the stream's board frame patches a cached
// list, and the filters round-trip through the URL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TRANSITIONS } from '../../shared/board/transitions.ts';
import { TASK_STATUSES, type Task } from '../../shared/board/types.ts';
import { applyFrameToTasks, parseBoardFrame } from '../../ui/src/features/board/board-frame.ts';
import { filterTasks, groupByStatus, NO_FILTERS, readFilters, writeFilters } from '../../ui/src/features/board/board-filters.ts';
import { allowedMoves, STATUSES } from '../../ui/src/features/board/statuses.ts';

const task = (over: Partial<Task> & { id: string }): Task => ({
  teamId: 't1',
  title: over.id,
  description: '',
  status: 'todo',
  assigneeAgentId: null,
  createdByAgentId: null,
  parentTaskId: null,
  runtime: null,
  costUsd: 0,
  createdAt: 100,
  updatedAt: 100,
  claimedAt: null,
  completedAt: null,
  dependsOn: [],
  ...over,
});

void test('Dashboard (issue 18, Board): a column for every status, and the moves offered are the server\'s rule', () => {
  assert.deepEqual([...STATUSES].sort(), [...TASK_STATUSES].sort());
  for (const s of TASK_STATUSES) assert.deepEqual([...allowedMoves(s)], [...TRANSITIONS[s]], s);
});

void test('Dashboard (issue 18, Board): a board frame is read from its JSON text or value; anything else is not one', () => {
  assert.deepEqual(parseBoardFrame('{"id":"a","title":"T","status":"done","assigneeAgentId":null,"updatedAt":5}'), {
    id: 'a',
    title: 'T',
    status: 'done',
    assigneeAgentId: null,
    updatedAt: 5,
  });
  assert.deepEqual(parseBoardFrame({ id: 'a', status: 'nope', title: 3 }), { id: 'a' });
  for (const bad of ['not json', '[]', 'null', { title: 'x' }, { id: '' }, 7]) assert.equal(parseBoardFrame(bad), null, JSON.stringify(bad));
});

void test('Dashboard (issue 18, Board): a frame updates its task, inserts a new one in order, and asks for a reload when it cannot', () => {
  const list = [task({ id: 'a', createdAt: 100 }), task({ id: 'c', createdAt: 300 })];
  const moved = applyFrameToTasks(list, { id: 'a', status: 'in_progress', assigneeAgentId: 'scout', updatedAt: 150 }, 't1');
  assert.deepEqual(moved?.map((t) => [t.id, t.status, t.assigneeAgentId, t.updatedAt]), [
    ['a', 'in_progress', 'scout', 150],
    ['c', 'todo', null, 100],
  ]);
  // An older frame than the cached row changes nothing.
  assert.deepEqual(applyFrameToTasks(list, { id: 'a', status: 'done', updatedAt: 50 }, 't1'), list);
  const added = applyFrameToTasks(list, { id: 'b', title: 'New', status: 'todo', createdAt: 200, updatedAt: 200 }, 't1');
  assert.deepEqual(added?.map((t) => [t.id, t.title, t.teamId]), [
    ['a', 'a', 't1'],
    ['b', 'New', 't1'],
    ['c', 'c', 't1'],
  ]);
  assert.equal(applyFrameToTasks(list, { id: 'a' }, 't1'), null, 'a task that is gone: reload');
  assert.equal(applyFrameToTasks(list, { id: 'z', status: 'todo' }, 't1'), null, 'a new task without a title: reload');
  assert.equal(list.length, 2, 'the cached list is never mutated');
});

void test('Dashboard (issue 18, Board): filters round-trip through the URL and keep other parameters', () => {
  const f = { team: 't1', assignee: 'scout', unassigned: false, status: 'blocked' } as const;
  const p = writeFilters(new URLSearchParams('task=x&status=done'), f);
  assert.equal(p.toString(), 'task=x&team=t1&assignee=scout&status=blocked');
  assert.deepEqual(readFilters(p), f);
  assert.equal(writeFilters(p, { ...f, unassigned: true }).get('assignee'), null);
  assert.deepEqual(readFilters(new URLSearchParams('status=bogus&team=')), NO_FILTERS);
  assert.equal(writeFilters(p, NO_FILTERS).toString(), 'task=x');
});

void test('Dashboard (issue 18, Board): filtering and columns', () => {
  const list = [
    task({ id: 'a', assigneeAgentId: 'scout' }),
    task({ id: 'b', status: 'done', teamId: 't2' }),
    task({ id: 'c', status: 'done', assigneeAgentId: 'scout' }),
  ];
  const ids = (ts: Task[]) => ts.map((t) => t.id);
  assert.deepEqual(ids(filterTasks(list, NO_FILTERS)), ['a', 'b', 'c']);
  assert.deepEqual(ids(filterTasks(list, { ...NO_FILTERS, assignee: 'scout' })), ['a', 'c']);
  assert.deepEqual(ids(filterTasks(list, { ...NO_FILTERS, unassigned: true, assignee: 'scout' })), ['b']);
  assert.deepEqual(ids(filterTasks(list, { ...NO_FILTERS, team: 't1', status: 'done' })), ['c']);
  const cols = groupByStatus(list);
  assert.deepEqual(Object.keys(cols), [...STATUSES]);
  assert.deepEqual([ids(cols.todo), ids(cols.done), ids(cols.blocked)], [['a'], ['b', 'c'], []]);
});
