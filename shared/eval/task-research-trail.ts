// Regression, research: the research trail on a task is durable and
// private. Notes come back in the order written, each bumps the task's
// updatedAt, a note on a missing task is refused (404) and leaves no row and
// no event, and the comment_added event carries the note's length, never its
// text. Fails if comment ordering, the task touch, the not-found refusal or
// the event's data shape regresses.
import type { Task, TaskComment } from '../board/types.ts';
import type { Db } from '../db/open.ts';
import { seedTeam } from './fixtures.ts';
import { attempt, checks, defineTask, type Attempt } from './graders.ts';

const NOTES = [
  'question: does the gateway retry a dropped socket?',
  'source: gateway docs section "reconnect" says yes, with backoff',
  'private: reviewer token sk-live-0000000000000000000000 seen in a log',
  'answer: yes, exponential backoff capped at 30 s',
];
const MISSING_TASK = '00000000-0000-7000-8000-000000000000';

interface Outcome {
  task: Task;
  posted: TaskComment[];
  stray: Attempt<TaskComment>;
  rowsBeforeStray: number;
  eventsBeforeStray: number;
}

const commentRows = (db: Db): number => db.prepare('SELECT COUNT(*) FROM task_comments').pluck().get() as number;

export const researchTrailTask = defineTask<Outcome>({
  id: 'research-trail',
  suite: 'regression',
  kind: 'research',
  proves: 'research notes come back in order, a note on a missing task is refused, and events never carry note text',
  scenario(ctx) {
    const { board } = ctx.domain;
    const teamId = seedTeam(ctx.domain, ['scout']);
    const task = board.create({ title: 'find out how the gateway reconnects', teamId, assigneeAgentId: 'scout' });
    board.claim(task.id, 'scout');
    const posted = NOTES.map((body) => board.comment(task.id, { authorAgentId: 'scout', body }));
    const rowsBeforeStray = commentRows(ctx.db);
    const eventsBeforeStray = ctx.events().length;
    const stray = attempt(() => board.comment(MISSING_TASK, { authorAgentId: 'scout', body: 'lost note' }));
    return { task, posted, stray, rowsBeforeStray, eventsBeforeStray };
  },
  graders: [
    ({ task, posted }, { domain }) => {
      const back = domain.board.comments(task.id);
      return checks('notes-in-order', [
        ['every note comes back, in the order written', back.map((c) => c.body).join('\n') === NOTES.join('\n')],
        ['ids and times as posted', back.every((c, i) => c.id === posted[i]?.id && c.createdAt === posted[i].createdAt)],
        ['the task was touched by the last note', domain.board.get(task.id)?.updatedAt === posted.at(-1)?.createdAt],
      ]);
    },
    ({ stray, rowsBeforeStray, eventsBeforeStray }, ctx) =>
      checks('missing-task-refused', [
        ['a note on a missing task refused as not found (404)', !stray.ok && stray.kind === 'not_found'],
        ['no comment row written', commentRows(ctx.db) === rowsBeforeStray],
        ['no event written', ctx.events().length === eventsBeforeStray],
      ]),
    ({ task, posted }, { events }) => {
      const added = events(task.id).filter((e) => e.kind === 'comment_added');
      const data = added.map((e) => JSON.parse(e.data) as { commentId?: string; length?: number });
      return checks('events-carry-no-text', [
        ['one comment_added per note', added.length === NOTES.length],
        ['each names its comment and its length', data.every((d, i) => d.commentId === posted[i]?.id && d.length === NOTES[i]?.length)],
        ['no note text in any event', added.every((e) => NOTES.every((n) => !e.data.includes(n)) && !e.data.includes('sk-live'))],
      ]);
    },
  ],
});
