// Task statuses and the moves between them, as the dashboard shows them. The
// server's rule lives in shared/board/transitions.ts; the UI cannot import
// it at run time (no shared/ code in the bundle), so it is mirrored here and
// test/unit/ui-board.test.ts fails if the two ever differ.
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

export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  todo: ['in_progress', 'blocked', 'cancelled'],
  in_progress: ['todo', 'in_review', 'done', 'blocked', 'cancelled'],
  in_review: ['in_progress', 'done', 'cancelled'],
  blocked: ['todo', 'in_progress', 'cancelled'],
  done: [],
  cancelled: ['todo'],
};

export function isTaskStatus(v: unknown): v is TaskStatus {
  return typeof v === 'string' && (STATUSES as readonly string[]).includes(v);
}

/** The statuses a task may move to from `from` (the server may still refuse: assignee, blockers). */
export function allowedMoves(from: TaskStatus): readonly TaskStatus[] {
  return TRANSITIONS[from];
}
