// The team-chat stream's `event: board` frame and how it patches a cached
// task list. Plain functions (no React, no DOM) so node:test can import them.
//
// Frame (spec "GET /api/teams/:id/chat/stream"; docs/api.md "Team chat"):
// `{ id, title?, status?, assigneeAgentId?, parentTaskId?, createdAt?,
// updatedAt?, summary? }`, or `{ id }` alone when the task is gone.
import type { Task, TaskStatus, TeamStreamFrame } from '../../api/types.ts';
import { isTaskStatus } from './statuses.ts';

/** The server's `board` frame, its status narrowed to the statuses this page knows (others are dropped). */
export type BoardFrame = Omit<TeamStreamFrame<'board'>, 'status'> & { status?: TaskStatus };

const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** Reads a frame (its JSON text or the parsed value); null when it is not a board frame at all. */
export function parseBoardFrame(raw: unknown): BoardFrame | null {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      // Not JSON: the caller reloads the board instead, which is always correct.
      return null;
    }
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (!str(o.id) || o.id === '') return null;
  const f: BoardFrame = { id: o.id };
  if (str(o.title)) f.title = o.title;
  if (isTaskStatus(o.status)) f.status = o.status;
  if (strOrNull(o.assigneeAgentId)) f.assigneeAgentId = o.assigneeAgentId;
  if (strOrNull(o.parentTaskId)) f.parentTaskId = o.parentTaskId;
  if (num(o.createdAt)) f.createdAt = o.createdAt;
  if (num(o.updatedAt)) f.updatedAt = o.updatedAt;
  return f;
}

/**
 * The task list after the frame, or null when the frame is not enough to
 * render it (a task that is gone, a new task without a title or status): the
 * caller then reloads the board. A frame older than the cached row is ignored.
 */
export function applyFrameToTasks(tasks: readonly Task[], frame: BoardFrame, teamId: string | null): Task[] | null {
  const i = tasks.findIndex((t) => t.id === frame.id);
  const onlyId = Object.keys(frame).length === 1;
  if (onlyId) return null;
  if (i >= 0) {
    const cur = tasks[i] as Task;
    if (frame.updatedAt !== undefined && frame.updatedAt < cur.updatedAt) return [...tasks];
    const next: Task = {
      ...cur,
      ...(frame.title !== undefined && { title: frame.title }),
      ...(frame.status !== undefined && { status: frame.status }),
      ...(frame.assigneeAgentId !== undefined && { assigneeAgentId: frame.assigneeAgentId }),
      ...(frame.parentTaskId !== undefined && { parentTaskId: frame.parentTaskId }),
      ...(frame.updatedAt !== undefined && { updatedAt: frame.updatedAt }),
    };
    const out = [...tasks];
    out[i] = next;
    return out;
  }
  if (frame.title === undefined || frame.status === undefined) return null;
  const createdAt = frame.createdAt ?? frame.updatedAt ?? Date.now();
  const task: Task = {
    id: frame.id,
    teamId,
    title: frame.title,
    // Not in the frame: the drawer loads the full task when it opens.
    description: '',
    status: frame.status,
    assigneeAgentId: frame.assigneeAgentId ?? null,
    createdByAgentId: null,
    parentTaskId: frame.parentTaskId ?? null,
    runtime: null,
    costUsd: 0,
    createdAt,
    updatedAt: frame.updatedAt ?? createdAt,
    claimedAt: null,
    completedAt: null,
    dependsOn: [],
  };
  // The list is oldest first, like GET /api/tasks.
  const at = tasks.findIndex((t) => t.createdAt > createdAt);
  const out = [...tasks];
  out.splice(at < 0 ? out.length : at, 0, task);
  return out;
}
