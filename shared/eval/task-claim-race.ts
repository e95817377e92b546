// Regression, coding: two agents on two connections go for the same task.
// The first claim wins; the second loses with a conflict (409 at the front
// door) and the loser's loop moves on to the next task instead of retrying.
// Fails if the claim guard (refuseClaim, or the guarded UPDATE in
// board.claim) lets a second claim through.
import { BOARD_MESSAGES } from '../board/transitions.ts';
import type { Task } from '../board/types.ts';
import { claimFirstFree, seedTeam, type ClaimLoop } from './fixtures.ts';
import { attempt, check, checks, defineTask, describeAttempt, refusedAs, type Attempt } from './graders.ts';

interface Outcome {
  contested: Task;
  spare: Task;
  first: Attempt<Task>;
  loser: ClaimLoop;
}

export const claimRaceTask = defineTask<Outcome>({
  id: 'claim-race-single-winner',
  suite: 'regression',
  kind: 'coding',
  proves: 'a second claim on a task loses with 409, is not retried, and the first claim stands',
  scenario({ domain, peer }) {
    const teamId = seedTeam(domain, ['alice', 'bob']);
    const contested = domain.board.create({ title: 'fix the date parser', teamId });
    const spare = domain.board.create({ title: 'add parser tests', teamId });
    // bob's process (its own connection) lists the open work before alice claims.
    const bobBoard = peer().board;
    const seenByBob = bobBoard.list({ teamId, status: 'todo' });
    const first = attempt(() => domain.board.claim(contested.id, 'alice'));
    const loser = claimFirstFree(bobBoard, 'bob', seenByBob);
    return { contested, spare, first, loser };
  },
  graders: [
    ({ contested, first }, { domain }) => {
      const now = domain.board.get(contested.id);
      return checks('first-claim-wins', [
        ['first claim accepted', first.ok],
        ['task in progress', now?.status === 'in_progress'],
        ['alice holds it', now?.assigneeAgentId === 'alice'],
      ]);
    },
    ({ contested, loser }) => {
      const onContested = loser.attempts.find((a) => a.taskId === contested.id);
      const refused = onContested !== undefined && refusedAs(onContested.result, BOARD_MESSAGES.alreadyClaimed);
      return check('second-claim-409', refused, onContested ? `bob's claim: ${describeAttempt(onContested.result)}` : 'bob never tried');
    },
    ({ contested, spare, loser }, { domain }) =>
      checks('loser-not-retried', [
        ['bob tried the contested task once', loser.attempts.filter((a) => a.taskId === contested.id).length === 1],
        ['bob moved on to the spare task', loser.claimed?.id === spare.id],
        ['the spare task is bob\'s', domain.board.get(spare.id)?.assigneeAgentId === 'bob'],
      ]),
    ({ contested }, { events }) => {
      const claims = events(contested.id).filter((e) => e.kind === 'task_claimed');
      return check(
        'one-claim-event',
        claims.length === 1 && claims[0]?.agentId === 'alice',
        `task_claimed by: ${claims.map((e) => e.agentId).join(', ') || 'nobody'}`,
      );
    },
  ],
});
