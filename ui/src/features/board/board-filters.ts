// The board's filters as the URL keeps them (`?team=&assignee=&unassigned=1
// &status=`), so back and forward and a reload keep them, and the grouping
// into columns. Plain functions (no React, no DOM) for node:test.
import type { Task, TaskStatus } from '../../api/types.ts';
import { isTaskStatus, STATUSES } from './statuses.ts';

export interface BoardFilters {
  /** Only on /board: one team's tasks (a team board is its own team). */
  team: string | null;
  /** One agent's tasks. */
  assignee: string | null;
  /** Only tasks nobody is assigned to (wins over assignee). */
  unassigned: boolean;
  status: TaskStatus | null;
}

export const NO_FILTERS: Readonly<BoardFilters> = Object.freeze({ team: null, assignee: null, unassigned: false, status: null });

const FILTER_PARAMS = ['team', 'assignee', 'unassigned', 'status'] as const;

export function readFilters(p: URLSearchParams): BoardFilters {
  const status = p.get('status');
  return {
    team: p.get('team') || null,
    assignee: p.get('assignee') || null,
    unassigned: p.get('unassigned') === '1',
    status: isTaskStatus(status) ? status : null,
  };
}

/** `prev` with the filters replaced by `f` (other parameters, such as the open task, kept). */
export function writeFilters(prev: URLSearchParams, f: BoardFilters): URLSearchParams {
  const next = new URLSearchParams(prev);
  for (const k of FILTER_PARAMS) next.delete(k);
  if (f.team) next.set('team', f.team);
  if (f.unassigned) next.set('unassigned', '1');
  else if (f.assignee) next.set('assignee', f.assignee);
  if (f.status) next.set('status', f.status);
  return next;
}

export function hasFilters(f: BoardFilters): boolean {
  return f.team !== null || f.assignee !== null || f.unassigned || f.status !== null;
}

export function filterTasks(tasks: readonly Task[], f: BoardFilters): Task[] {
  return tasks.filter(
    (t) =>
      (f.team === null || t.teamId === f.team) &&
      (f.unassigned ? t.assigneeAgentId === null : f.assignee === null || t.assigneeAgentId === f.assignee) &&
      (f.status === null || t.status === f.status),
  );
}

/** Tasks per status column, each in the list's order (oldest first). */
export function groupByStatus(tasks: readonly Task[]): Record<TaskStatus, Task[]> {
  const out = Object.fromEntries(STATUSES.map((s) => [s, [] as Task[]])) as Record<TaskStatus, Task[]>;
  for (const t of tasks) out[t.status].push(t);
  return out;
}
