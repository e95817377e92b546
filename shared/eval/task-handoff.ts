// Capability, coordination: a handoff. One agent works a task, leaves a
// progress note, releases it (in_progress -> todo, unassigned); another
// agent on its own connection claims it, reads the note and resumes at the
// next step, then takes it through review to done. While the first agent
// holds it nobody can take it. Fails if a held task can be claimed, if a
// release no longer frees the task for a new claim, or if comments stop
// carrying the context across agents.
import { BOARD_MESSAGES } from '../board/transitions.ts';
import type { Task } from '../board/types.ts';
import { seedTeam } from './fixtures.ts';
import { attempt, checks, defineTask, refusedAs, type Attempt } from './graders.ts';

const STEPS = 3;
const NOTE = /^progress: step (\d+)\/(\d+) done/;

interface Outcome {
  task: Task;
  stolen: Attempt<Task>;
  released: Task | null;
  resumed: Attempt<Task>;
  resumedAtStep: number | null;
}

export const handoffTask = defineTask<Outcome>({
  id: 'handoff-resume',
  suite: 'capability',
  kind: 'coordination',
  proves: 'a handoff lets another agent resume a released task from the notes left on it',
  scenario({ domain, peer }) {
    const teamId = seedTeam(domain, ['day', 'night']);
    const day = domain.board;
    const night = peer().board;
    const task = day.create({ title: 'port the three report endpoints', teamId });
    day.claim(task.id, 'day');
    day.comment(task.id, { authorAgentId: 'day', body: `progress: step 1/${STEPS} done (endpoint one ported)` });
    const stolen = attempt(() => night.claim(task.id, 'night'));
    day.update(task.id, { status: 'todo', assigneeAgentId: null, actorAgentId: 'day' });
    const released = day.get(task.id);
    const resumed = attempt(() => night.claim(task.id, 'night'));
    let resumedAtStep: number | null = null;
    if (resumed.ok) {
      // night reads the newest progress note and carries on from there.
      const last = night.comments(task.id).map((c) => NOTE.exec(c.body)).filter((m) => m !== null).at(-1);
      resumedAtStep = last ? Number(last[1]) + 1 : 1;
      for (let step = resumedAtStep; step <= STEPS; step++) {
        night.comment(task.id, { authorAgentId: 'night', body: `progress: step ${step}/${STEPS} done` });
      }
      night.update(task.id, { status: 'in_review', actorAgentId: 'night' });
      night.update(task.id, { status: 'done', actorAgentId: 'night' });
    }
    return { task, stolen, released, resumed, resumedAtStep };
  },
  graders: [
    ({ stolen }) => checks('held-task-not-taken', [['a claim on a held task refused (409)', refusedAs(stolen, BOARD_MESSAGES.alreadyClaimed)]]),
    ({ task, released }, { events }) => {
      const release = events(task.id).find((e) => e.kind === 'status_changed' && e.agentId === 'day');
      const data = release ? (JSON.parse(release.data) as { from?: string; to?: string }) : {};
      return checks('release-frees-task', [
        ['released task is todo and unassigned', released?.status === 'todo' && released.assigneeAgentId === null],
        ['the release is recorded as in_progress -> todo by day', data.from === 'in_progress' && data.to === 'todo'],
      ]);
    },
    ({ task, resumed }, { domain, events }) => {
      const final = domain.board.get(task.id);
      const claimers = events(task.id).filter((e) => e.kind === 'task_claimed').map((e) => e.agentId);
      return checks('resumed-by-other-agent', [
        ['night\'s claim after the release accepted', resumed.ok],
        ['claimed by day, then by night', claimers.join() === 'day,night'],
        ['night finished it', final?.status === 'done' && final.assigneeAgentId === 'night'],
      ]);
    },
    ({ task, resumedAtStep }, { domain }) => {
      const notes = domain.board.comments(task.id).map((c) => `${c.authorAgentId}:${NOTE.exec(c.body)?.[1] ?? '?'}`);
      return checks('context-carried', [
        ['night resumed at step 2', resumedAtStep === 2],
        ['each step done once, in order, by the right agent', notes.join(' ') === 'day:1 night:2 night:3'],
      ]);
    },
  ],
});
