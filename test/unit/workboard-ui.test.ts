// Issue 23 item 5 in the dashboard's pure logic: Workboard cards follow the
// board's filters (team, assignee, unassigned, status by column) and land in
// the column their status maps to; Workboard's statuses read as words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkboardCard } from '../../shared/workboard/schemas.ts';
import { NO_FILTERS } from '../../ui/src/features/board/board-filters.ts';
import { STATUSES } from '../../ui/src/features/board/statuses.ts';
import { filterCards, groupCardsByColumn, workboardStatusLabel } from '../../ui/src/features/board/workboard-cards.ts';

const card = (over: Partial<WorkboardCard> & { id: string }): WorkboardCard => ({
  title: over.id,
  status: 'todo',
  column: 'todo',
  agentId: null,
  teamIds: [],
  sessionKey: null,
  runId: null,
  source: 'workboard',
  updatedAt: null,
  ...over,
});

void test('Delegation (issue 23, item 5): Workboard cards follow the board filters and group by the column their status maps to', () => {
  const cards = [
    card({ id: 'a', status: 'ready', column: 'todo', agentId: 'ada', teamIds: ['t1'] }),
    card({ id: 'b', status: 'running', column: 'in_progress', agentId: 'bob', teamIds: ['t1', 't2'] }),
    card({ id: 'c', status: 'review', column: 'in_review' }),
  ];
  const ids = (cs: WorkboardCard[]) => cs.map((c) => c.id);
  assert.deepEqual(ids(filterCards(cards, NO_FILTERS)), ['a', 'b', 'c']);
  assert.deepEqual(ids(filterCards(cards, { ...NO_FILTERS, team: 't2' })), ['b']);
  assert.deepEqual(ids(filterCards(cards, { ...NO_FILTERS, assignee: 'ada' })), ['a']);
  assert.deepEqual(ids(filterCards(cards, { ...NO_FILTERS, assignee: 'ada', unassigned: true })), ['c'], 'unassigned wins');
  assert.deepEqual(ids(filterCards(cards, { ...NO_FILTERS, status: 'in_progress' })), ['b']);
  const groups = groupCardsByColumn(cards);
  assert.deepEqual(Object.keys(groups), [...STATUSES]);
  assert.deepEqual([ids(groups.todo), ids(groups.in_progress), ids(groups.in_review), ids(groups.done)], [['a'], ['b'], ['c'], []]);
  assert.deepEqual(['ready', 'review', 'x'].map(workboardStatusLabel), ['Ready', 'Review', 'X']);
});
