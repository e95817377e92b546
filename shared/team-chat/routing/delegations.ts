// Which board tasks of a team are delegations ready to deliver
// (docs/team-chat.md, "How work spreads"): created by an agent, either naming
// its creator or through svc's tasks MCP server (origin `mcp`: only agents
// use it, and the spec's attach snippet carries no identity, so such a task
// may name no creator; a task a person puts on the board through the API or
// the dashboard is theirs to hand out: svc does not start work on it by
// itself), status `todo`, assigned to an agent the team can address, no open
// blocker, and never delivered before (no executions row names the task, so a
// task a stop released is not delivered again by itself).
import type { Board } from '../../board/board.ts';
import { LIST_LIMIT_MAX } from '../../board/schemas.ts';
import type { Task } from '../../board/types.ts';
import type { Executions } from '../runs/executions.ts';

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
        byAnAgent(t) &&
        t.assigneeAgentId !== null &&
        assignees.has(t.assigneeAgentId) &&
        !skip.has(t.id) &&
        board.openBlockers(t.id).length === 0 &&
        !executions.hasTask(t.id),
    );
}

/** Whether an agent made the task: it names its creator, or came through the tasks MCP server. */
export const byAnAgent = (t: Pick<Task, 'createdByAgentId' | 'origin'>): boolean => t.createdByAgentId !== null || t.origin === 'mcp';

/** Who a task is from when no agent of svc's is known as its creator. */
export const VIA_TASKS_SERVER = "an agent (through svc's tasks server)";

/**
 * Who the assignee is told a task is from: the creator's name when svc knows
 * the agent, else the id the task names, else (an `mcp` task with no creator)
 * "an agent" through the tasks server; "the user" only for a task a person made.
 */
export const senderOf = (task: Pick<Task, 'createdByAgentId' | 'origin'>, creatorName: string | null): string =>
  creatorName ?? task.createdByAgentId ?? (task.origin === 'mcp' ? VIA_TASKS_SERVER : 'the user');

/** What the assignee is sent for a delegated task. */
export const taskMessage = (task: Task, creatorName: string): string =>
  `Task ${task.id} from ${creatorName}: ${task.title}${task.description ? `\n\n${task.description}` : ''}`;

/** What the lead is sent when the assignee's run ends. */
export const resultMessage = (task: Task, assigneeName: string, reply: string): string =>
  `Result of task ${task.id} "${task.title}" from ${assigneeName}:\n${reply}`;
