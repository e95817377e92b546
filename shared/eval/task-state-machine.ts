// Regression, coding: the board's state machine (TRANSITIONS in
// shared/board/transitions.ts) refuses illegal jumps with a conflict and
// writes nothing for them, while the legal path still reaches done.
// The `illegal-jumps-refused` grader is the one that fails if the table ever
// allows `todo -> done` (its first check), `todo -> in_review`, leaving
// `done`, or `cancelled -> done`; `refusals-write-nothing` fails with it.
import { BOARD_MESSAGES } from '../board/transitions.ts';
import type { Task, TaskStatus } from '../board/types.ts';
import { statusMoves, seedTeam } from './fixtures.ts';
import { attempt, checks, defineTask, refusedAs, type Attempt } from './graders.ts';

interface Jump {
  from: TaskStatus;
  to: TaskStatus;
  result: Attempt<Task>;
}

interface Outcome {
  task: Task;
  cancelled: Task;
  jumps: Jump[];
  unassignedStart: Attempt<Task>;
  legal: Array<Attempt<Task>>;
}

export const stateMachineTask = defineTask<Outcome>({
  id: 'state-machine-illegal-jumps',
  suite: 'regression',
  kind: 'coding',
  proves: 'the state machine refuses illegal jumps (todo to done first of all) and records none of them',
  scenario({ domain }) {
    const { board } = domain;
    const teamId = seedTeam(domain, ['dev']);
    const task = board.create({ title: 'rename the config loader', teamId });
    const cancelled = board.create({ title: 'drop the legacy flag', teamId });
    const jumps: Jump[] = [];
    const jump = (t: Task, to: TaskStatus) =>
      jumps.push({ from: board.get(t.id)?.status ?? t.status, to, result: attempt(() => board.update(t.id, { status: to, assigneeAgentId: 'dev' })) });

    jump(task, 'done');
    jump(task, 'in_review');
    const unassignedStart = attempt(() => board.update(task.id, { status: 'in_progress' }));
    const legal = [
      attempt(() => board.claim(task.id, 'dev')),
      attempt(() => board.update(task.id, { status: 'in_review', actorAgentId: 'dev' })),
      attempt(() => board.update(task.id, { status: 'done', actorAgentId: 'dev' })),
    ];
    jump(task, 'in_progress');
    jump(task, 'todo');
    jump(task, 'cancelled');

    legal.push(attempt(() => board.update(cancelled.id, { status: 'cancelled' })));
    jump(cancelled, 'done');
    jump(cancelled, 'in_progress');
    legal.push(attempt(() => board.update(cancelled.id, { status: 'todo' })));
    return { task, cancelled, jumps, unassignedStart, legal };
  },
  graders: [
    ({ jumps }) =>
      checks(
        'illegal-jumps-refused',
        jumps.map((j) => [`${j.from} -> ${j.to} refused (409)`, refusedAs(j.result, BOARD_MESSAGES.badMove(j.from, j.to))] as const),
      ),
    ({ unassignedStart }) =>
      checks('start-needs-assignee', [['in_progress without an assignee refused', refusedAs(unassignedStart, BOARD_MESSAGES.needsAssignee)]]),
    ({ task, cancelled }, { events }) => {
      const moves = (id: string) => statusMoves(events(id)).map((m) => `${m.from}>${m.to}`).join(' ');
      return checks('refusals-write-nothing', [
        ['worked task: claim, review, done and nothing else', moves(task.id) === 'todo>in_progress in_progress>in_review in_review>done'],
        ['cancelled task: cancel, reopen and nothing else', moves(cancelled.id) === 'todo>cancelled cancelled>todo'],
      ]);
    },
    ({ task, cancelled, legal }, { domain }) => {
      const done = domain.board.get(task.id);
      const reopened = domain.board.get(cancelled.id);
      return checks('legal-path-reaches-done', [
        ['every legal move accepted', legal.every((a) => a.ok)],
        ['worked task done with a completion time', done?.status === 'done' && done.completedAt !== null],
        ['reopened task back to todo, completion cleared', reopened?.status === 'todo' && reopened.completedAt === null],
      ]);
    },
  ],
});
