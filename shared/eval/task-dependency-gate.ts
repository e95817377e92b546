// Regression, coordination: a task that waits for another is not claimable
// (nor startable by a status change) until its blocker is done; a dependency
// that would close a cycle is refused. Fails if the open-blocker guard in
// board.claim / refuseTransition, or the cycle check, regresses.
import { BOARD_MESSAGES } from '../board/transitions.ts';
import type { Task } from '../board/types.ts';
import { seedTeam } from './fixtures.ts';
import { attempt, checks, defineTask, refusedAs, type Attempt } from './graders.ts';

interface Outcome {
  blocker: Task;
  dependent: Task;
  earlyClaim: Attempt<Task>;
  earlyStart: Attempt<Task>;
  dependentBeforeUnblock: Task | null;
  cycle: Attempt<unknown>;
  selfLoop: Attempt<unknown>;
  lateClaim: Attempt<Task>;
}

export const dependencyGateTask = defineTask<Outcome>({
  id: 'dependency-gate',
  suite: 'regression',
  kind: 'coordination',
  proves: 'a dependent task is not claimable until its blocker is done, and cycles are refused',
  scenario({ domain }) {
    const { board } = domain;
    const teamId = seedTeam(domain, ['ana', 'ben']);
    const blocker = board.create({ title: 'design the schema', teamId, assigneeAgentId: 'ana' });
    const dependent = board.create({ title: 'write the migration', teamId, dependsOn: [blocker.id] });
    board.claim(blocker.id, 'ana');
    const earlyClaim = attempt(() => board.claim(dependent.id, 'ben'));
    const earlyStart = attempt(() => board.update(dependent.id, { status: 'in_progress', assigneeAgentId: 'ben', actorAgentId: 'ben' }));
    const dependentBeforeUnblock = board.get(dependent.id);
    const cycle = attempt(() => board.linkDependency(blocker.id, dependent.id));
    const selfLoop = attempt(() => board.linkDependency(dependent.id, dependent.id));
    board.update(blocker.id, { status: 'done', actorAgentId: 'ana' });
    const lateClaim = attempt(() => board.claim(dependent.id, 'ben'));
    return { blocker, dependent, earlyClaim, earlyStart, dependentBeforeUnblock, cycle, selfLoop, lateClaim };
  },
  graders: [
    ({ blocker, earlyClaim }) =>
      checks('blocked-claim-refused', [
        ['claim refused as blocked (409)', refusedAs(earlyClaim, BOARD_MESSAGES.blocked)],
        ['the refusal names the blocker', !earlyClaim.ok && JSON.stringify(earlyClaim.extra.blockers) === JSON.stringify([blocker.id])],
      ]),
    ({ earlyStart, dependentBeforeUnblock }) =>
      checks('blocked-start-refused', [
        ['status change to in_progress refused as blocked', refusedAs(earlyStart, BOARD_MESSAGES.blocked)],
        ['still todo', dependentBeforeUnblock?.status === 'todo'],
        ['still unassigned', dependentBeforeUnblock?.assigneeAgentId === null],
      ]),
    ({ cycle, selfLoop, blocker }, { domain }) =>
      checks('cycle-refused', [
        ['a cycle is refused', refusedAs(cycle, BOARD_MESSAGES.cycle)],
        ['a self-dependency is refused', refusedAs(selfLoop, BOARD_MESSAGES.selfDependency)],
        ['the blocker waits for nothing', domain.board.get(blocker.id)?.dependsOn.length === 0],
      ]),
    ({ dependent, lateClaim }, { domain }) => {
      const now = domain.board.get(dependent.id);
      return checks('claimable-after-done', [
        ['claim accepted once the blocker is done', lateClaim.ok],
        ['ben holds it, in progress', now?.assigneeAgentId === 'ben' && now.status === 'in_progress'],
        ['no open blockers left', domain.board.openBlockers(dependent.id).length === 0],
      ]);
    },
  ],
});
