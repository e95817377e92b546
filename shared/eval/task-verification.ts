// Capability, coding: a verification step keeps bad work out of `done`. A
// coder submits work for review (in_review); a reviewer runs a code check
// on it and sends bad work back (in_review -> in_progress) with a comment;
// fixed work is approved to done, and done is final. Fails if the reject
// move (in_review -> in_progress) is refused, if the board reaches done
// other than through the approved review, or if done can be reopened.
import { BOARD_MESSAGES } from '../board/transitions.ts';
import type { Board } from '../board/board.ts';
import type { Task } from '../board/types.ts';
import { seedTeam, statusMoves } from './fixtures.ts';
import { attempt, checks, defineTask, refusedAs, type Attempt } from './graders.ts';

/** The job: sort these numbers ascending. */
const INPUT = [10, 9, 2, 33, 1, 100];
const ARTIFACT = /^artifact: (\[.*\])$/;
const MAX_ROUNDS = 3;

/** The reviewer's check: a numeric ascending permutation of the input. */
export function verifySorted(output: readonly number[]): boolean {
  const expected = [...INPUT].sort((a, b) => a - b);
  return output.length === expected.length && output.every((v, i) => v === expected[i]);
}

/** The coder's attempts: first a lexicographic sort (the classic bug), then a numeric one. */
const attemptsByRound: ReadonlyArray<() => number[]> = [() => [...INPUT].sort(), () => [...INPUT].sort((a, b) => a - b)];

interface Outcome {
  task: Task;
  verdicts: boolean[];
  rejections: Array<Attempt<Task>>;
  reopen: Attempt<Task>;
}

function latestArtifact(board: Board, taskId: string): number[] | null {
  const m = board.comments(taskId).map((c) => ARTIFACT.exec(c.body)).filter((x) => x !== null).at(-1);
  return m ? (JSON.parse(m[1] as string) as number[]) : null;
}

export const verificationTask = defineTask<Outcome>({
  id: 'verification-gate',
  suite: 'capability',
  kind: 'coding',
  proves: 'a verification step sends bad work back from in_review and only verified work reaches done',
  scenario({ domain }) {
    const { board } = domain;
    const teamId = seedTeam(domain, ['coder', 'reviewer']);
    const task = board.create({ title: 'sort the report rows numerically', teamId });
    board.claim(task.id, 'coder');
    const verdicts: boolean[] = [];
    const rejections: Array<Attempt<Task>> = [];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const submit = attemptsByRound[Math.min(round, attemptsByRound.length - 1)];
      const work = submit ? submit() : [];
      board.comment(task.id, { authorAgentId: 'coder', body: `artifact: ${JSON.stringify(work)}` });
      board.update(task.id, { status: 'in_review', actorAgentId: 'coder' });
      const ok = verifySorted(latestArtifact(board, task.id) ?? []);
      verdicts.push(ok);
      if (ok) {
        board.update(task.id, { status: 'done', actorAgentId: 'reviewer' });
        break;
      }
      board.comment(task.id, { authorAgentId: 'reviewer', body: 'rejected: not sorted numerically' });
      const back = attempt(() => board.update(task.id, { status: 'in_progress', actorAgentId: 'reviewer' }));
      rejections.push(back);
      if (!back.ok) break;
    }
    const reopen = attempt(() => board.update(task.id, { status: 'in_progress', actorAgentId: 'coder' }));
    return { task, verdicts, rejections, reopen };
  },
  graders: [
    ({ verdicts, rejections }) =>
      checks('bad-work-sent-back', [
        ['the first submission failed verification', verdicts[0] === false],
        ['the rejection (in_review -> in_progress) accepted', rejections.length === 1 && rejections[0]?.ok === true],
      ]),
    ({ task }, { events }) => {
      const moves = statusMoves(events(task.id)).map((m) => m.to).join(' ');
      return checks('done-only-after-approval', [
        ['claim, review, back, review, done', moves === 'in_progress in_review in_progress in_review done'],
      ]);
    },
    ({ task, verdicts }, { domain }) => {
      const final = domain.board.get(task.id);
      return checks('verified-work-done', [
        ['the second submission verified', verdicts.length === 2 && verdicts[1] === true],
        ['the done task carries verified work', verifySorted(latestArtifact(domain.board, task.id) ?? [])],
        ['task done with a completion time', final?.status === 'done' && final.completedAt !== null],
        ['the reviewer\'s reason is on the task', domain.board.comments(task.id).some((c) => c.authorAgentId === 'reviewer')],
      ]);
    },
    ({ reopen }) => checks('done-is-final', [['reopening done work refused (409)', refusedAs(reopen, BOARD_MESSAGES.badMove('done', 'in_progress'))]]),
  ],
});
