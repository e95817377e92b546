// Which board tasks of a team are delegations ready to deliver (design17
// "Delegations"): created by an agent (a task a person puts on the board is
// theirs to hand out: svc does not start work on it by itself), status
// `todo`, assigned to an agent the team can address, no open blocker, and
// never delivered before (no executions row names the task, so a task a stop
// released is not delivered again by itself).
import type { Board } from '../board/board.ts';
import { LIST_LIMIT_MAX } from '../board/schemas.ts';
import type { Task } from '../board/types.ts';
import type { Executions } from './executions.ts';

export function readyDelegations(
  board: Pick<Board, 'list' | 'openBlockers'>,
  executions: Pick<Executions, 'hasTask'>,
  teamId: string,
  assignees: ReadonlySet<string>,
  skip: ReadonlySet<string> = new Set(),
): Task[] {
  return board
    .list({ teamId, status: 'todo', limit: LIST_LIMIT_MAX })
    .filter(
      (t) =>
        t.createdByAgentId !== null &&
        t.assigneeAgentId !== null &&
        assignees.has(t.assigneeAgentId) &&
        !skip.has(t.id) &&
        board.openBlockers(t.id).length === 0 &&
        !executions.hasTask(t.id),
    );
}

/** What the assignee is sent for a delegated task. */
export const taskMessage = (task: Task, creatorName: string): string =>
  `Task ${task.id} from ${creatorName}: ${task.title}${task.description ? `\n\n${task.description}` : ''}`;

/** What the lead is sent when the assignee's run ends. */
export const resultMessage = (task: Task, assigneeName: string, reply: string): string =>
  `Result of task ${task.id} "${task.title}" from ${assigneeName}:\n${reply}`;
