// The board's rules in one place: which status may follow which, and what
// must hold to start work. The routes, the MCP tasks server, the team-chat
// orchestrator and the eval smoke suite all go through these functions.
import type { TaskStatus } from './types.ts';

/**
 * Allowed moves. `done` is terminal; `cancelled` can only be reopened to
 * `todo`; `todo` cannot jump to `in_review` or `done` without being worked.
 */
export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = Object.freeze({
  todo: ['in_progress', 'blocked', 'cancelled'],
  in_progress: ['todo', 'in_review', 'done', 'blocked', 'cancelled'],
  in_review: ['in_progress', 'done', 'cancelled'],
  blocked: ['todo', 'in_progress', 'cancelled'],
  done: [],
  cancelled: ['todo'],
});

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(['done']);

/** Statuses in which a task is settled: it no longer needs anyone. */
export const CLOSED: ReadonlySet<TaskStatus> = new Set(['done', 'cancelled']);

export const canTransition = (from: TaskStatus, to: TaskStatus): boolean => TRANSITIONS[from].includes(to);

export interface TransitionContext {
  /** The assignee the task will have after the change. */
  assigneeAgentId: string | null;
  /** Ids of dependencies that are not done. */
  openBlockers: readonly string[];
}

export const BOARD_MESSAGES = {
  notFound: 'task not found',
  parentNotFound: 'parent task not found',
  dependencyNotFound: 'dependency task not found',
  badMove: (from: TaskStatus, to: TaskStatus) => `cannot move a task from ${from} to ${to}`,
  needsAssignee: 'a task needs an assignee to be in progress',
  blocked: 'task is blocked by unfinished dependencies',
  alreadyClaimed: 'task already claimed',
  assignedElsewhere: 'task is assigned to another agent',
  notClaimable: (status: TaskStatus) => `cannot claim a task in status ${status}`,
  cycle: 'dependency would create a cycle',
  selfDependency: 'a task cannot depend on itself',
  closedParent: (status: TaskStatus) => `cannot delegate from a task in status ${status}`,
} as const;

/**
 * Why a status change is refused, or null when it is allowed. Same status is
 * a no-op, allowed, except that an in-progress task cannot lose its assignee.
 */
export function refuseTransition(from: TaskStatus, to: TaskStatus, ctx: TransitionContext): string | null {
  if (from === to) return to === 'in_progress' && ctx.assigneeAgentId === null ? BOARD_MESSAGES.needsAssignee : null;
  if (!canTransition(from, to)) return BOARD_MESSAGES.badMove(from, to);
  if (to === 'in_progress') {
    if (ctx.assigneeAgentId === null) return BOARD_MESSAGES.needsAssignee;
    if (ctx.openBlockers.length > 0) return BOARD_MESSAGES.blocked;
  }
  return null;
}

/** Why `agentId` may not claim the task, or null when it may. */
export function refuseClaim(
  task: { status: TaskStatus; assigneeAgentId: string | null },
  agentId: string,
  openBlockers: readonly string[],
): string | null {
  if (task.status === 'in_progress' || task.status === 'in_review') return BOARD_MESSAGES.alreadyClaimed;
  if (task.status !== 'todo') return BOARD_MESSAGES.notClaimable(task.status);
  if (task.assigneeAgentId !== null && task.assigneeAgentId !== agentId) return BOARD_MESSAGES.assignedElsewhere;
  if (openBlockers.length > 0) return BOARD_MESSAGES.blocked;
  return null;
}
