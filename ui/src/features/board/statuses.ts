// Task statuses as the dashboard shows them (column order, labels) and the
// moves between them: the server's own rule, shared/board/transitions.ts
// (imported as is: it imports nothing at run time).
import { TRANSITIONS } from '../../../../shared/board/transitions.ts';
import type { TaskStatus } from '../../api/types.ts';

/** Board columns, left to right. */
export const STATUSES = ['todo', 'in_progress', 'in_review', 'blocked', 'done', 'cancelled'] as const satisfies readonly TaskStatus[];

export const STATUS_LABEL: Readonly<Record<TaskStatus, string>> = {
  todo: 'To do',
  in_progress: 'In progress',
  in_review: 'In review',
  blocked: 'Blocked',
  done: 'Done',
  cancelled: 'Cancelled',
};

export { TRANSITIONS };

export function isTaskStatus(v: unknown): v is TaskStatus {
  return typeof v === 'string' && (STATUSES as readonly string[]).includes(v);
}

/** The statuses a task may move to from `from` (the server may still refuse: assignee, blockers). */
export function allowedMoves(from: TaskStatus): readonly TaskStatus[] {
  return TRANSITIONS[from];
}
