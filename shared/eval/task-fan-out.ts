// Capability, coordination: a lead fans one task out to three agents with
// board.delegate; each agent works only its own subtask and reports up to
// the parent in a comment; the lead closes the parent once every child is
// done, and a closed parent takes no more delegations. Fails if delegation
// stops linking children to their parent, if a subtask assigned to one agent
// can be claimed by another, or if a done parent accepts new subtasks.
import { BOARD_MESSAGES } from '../board/transitions.ts';
import type { Task } from '../board/types.ts';
import { seedTeam } from './fixtures.ts';
import { attempt, checks, defineTask, refusedAs, type Attempt } from './graders.ts';

const WORKERS = ['worker-a', 'worker-b', 'worker-c'] as const;

interface Outcome {
  parent: Task;
  children: Task[];
  intruder: Attempt<Task>;
  allDoneWhenClosed: boolean;
  closedAt: Attempt<Task>;
  lateDelegation: Attempt<Task>;
}

export const fanOutTask = defineTask<Outcome>({
  id: 'delegated-fan-out',
  suite: 'capability',
  kind: 'coordination',
  proves: 'a delegated fan-out links each subtask to its parent, each agent reports up, and the parent closes last',
  scenario({ domain }) {
    const { board } = domain;
    const teamId = seedTeam(domain, ['lead', ...WORKERS]);
    const parent = board.create({ title: 'ship the export feature', teamId, assigneeAgentId: 'lead' });
    board.claim(parent.id, 'lead');
    const children = WORKERS.map((w, i) =>
      board.delegate(parent.id, { fromAgentId: 'lead', toAgentId: w, title: `export part ${i + 1}` }),
    );
    const intruder = attempt(() => board.claim((children[0] as Task).id, 'worker-b'));
    for (const child of children) {
      const agent = child.assigneeAgentId as string;
      board.claim(child.id, agent);
      board.comment(parent.id, { authorAgentId: agent, body: `report ${child.id}: ${child.title} finished` });
      board.update(child.id, { status: 'done', actorAgentId: agent });
    }
    // The lead closes the parent only when the board says every child is done.
    const allDoneWhenClosed = board.list({ parentTaskId: parent.id }).every((c) => c.status === 'done');
    board.update(parent.id, { status: 'in_review', actorAgentId: 'lead' });
    const closedAt = attempt(() => board.update(parent.id, { status: 'done', actorAgentId: 'lead' }));
    const lateDelegation = attempt(() => board.delegate(parent.id, { fromAgentId: 'lead', toAgentId: 'worker-a', title: 'one more thing' }));
    return { parent, children, intruder, allDoneWhenClosed, closedAt, lateDelegation };
  },
  graders: [
    ({ parent, children }, { domain, events }) => {
      const listed = domain.board.list({ parentTaskId: parent.id });
      const created = children.map((c) => events(c.id).find((e) => e.kind === 'task_created'));
      return checks('subtasks-linked', [
        ['three subtasks under the parent', listed.length === WORKERS.length],
        ['each created by the lead in the parent\'s team', listed.every((c) => c.createdByAgentId === 'lead' && c.teamId === parent.teamId)],
        ['each assigned to its own worker', listed.map((c) => c.assigneeAgentId).join() === WORKERS.join()],
        ['each task_created event marks a delegation', created.every((e) => e !== undefined && (JSON.parse(e.data) as { delegation?: unknown }).delegation === true)],
      ]);
    },
    ({ intruder }) =>
      checks('assignment-respected', [['another agent cannot claim a delegated subtask', refusedAs(intruder, BOARD_MESSAGES.assignedElsewhere)]]),
    ({ parent, children }, { domain }) => {
      const reports = domain.board.comments(parent.id);
      return checks(
        'reports-reach-parent',
        children.map((c) => [
          `report from ${c.assigneeAgentId} on the parent`,
          reports.some((r) => r.authorAgentId === c.assigneeAgentId && r.body.includes(c.id)),
        ] as const),
      );
    },
    ({ parent, children, allDoneWhenClosed, closedAt }, { domain }) => {
      const closed = domain.board.get(parent.id);
      const lastChild = Math.max(...children.map((c) => domain.board.get(c.id)?.completedAt ?? Infinity));
      return checks('parent-closes-last', [
        ['every child done when the lead closed the parent', allDoneWhenClosed],
        ['parent done', closedAt.ok && closed?.status === 'done'],
        ['parent completed after its last child', (closed?.completedAt ?? 0) > lastChild],
      ]);
    },
    ({ parent, lateDelegation }, { domain }) =>
      checks('closed-parent-refuses-delegation', [
        ['delegating from a done parent refused (409)', refusedAs(lateDelegation, BOARD_MESSAGES.closedParent('done'))],
        ['no fourth subtask', domain.board.list({ parentTaskId: parent.id }).length === WORKERS.length],
      ]),
  ],
});
