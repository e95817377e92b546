// One task on a board or in the team chat's side panel: title, status and
// assignee; the whole card is a button that opens the task.
import type { Task } from '../../api/types.ts';
import { STATUS_LABEL } from './statuses.ts';

export interface TaskCardProps {
  task: Pick<Task, 'id' | 'title' | 'status' | 'assigneeAgentId'>;
  onOpen: (id: string) => void;
  /** The assignee's display name, when the caller knows it (default: the agent id). */
  assigneeName?: string;
}

export function TaskCard({ task, onOpen, assigneeName }: TaskCardProps) {
  const who = task.assigneeAgentId === null ? 'Unassigned' : (assigneeName ?? task.assigneeAgentId);
  return (
    <button
      type="button"
      className="card block w-full p-3 text-left hover:border-accent focus-visible:border-accent"
      onClick={() => onOpen(task.id)}
      data-task-id={task.id}
    >
      <span className="block font-medium break-words">{task.title}</span>
      <span className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-muted">
        <span>{STATUS_LABEL[task.status]}</span>
        <span aria-hidden="true">·</span>
        <span>{who}</span>
      </span>
    </button>
  );
}
