// The board's server state: one cached task list per team (or all teams),
// loaded from GET /api/tasks and patched by the team-chat stream's
// `event: board` frames. Filters are applied on the page, not in the key, so
// a frame patches one list that every filtered view reads.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Task } from '../../api/types.ts';
import { applyFrameToTasks, parseBoardFrame } from './board-frame.ts';

/** GET /api/tasks caps at 2000 rows (docs/api.md "Board"). */
export const BOARD_LIMIT = 2000;

/** The react-query key of a board: a team's tasks, or all teams' (null). */
export function boardKey(teamId: string | null): readonly ['board', string | null] {
  return ['board', teamId];
}

/** The key of one task's detail (GET /api/tasks/:id); its comments live under it. */
export function taskKey(taskId: string): readonly ['task', string] {
  return ['task', taskId];
}

export function fetchBoard(teamId: string | null, signal?: AbortSignal): Promise<Task[]> {
  const q = new URLSearchParams({ limit: String(BOARD_LIMIT) });
  if (teamId !== null) q.set('teamId', teamId);
  return api<{ tasks: Task[] }>(`/api/tasks?${q}`, { signal }).then((r) => r.tasks);
}

export interface BoardOptions {
  /** Poll every n ms (react-query pauses it in hidden tabs). */
  refetchInterval?: number;
}

export function useBoard(teamId: string | null, opts: BoardOptions = {}) {
  return useQuery({
    queryKey: boardKey(teamId),
    queryFn: ({ signal }) => fetchBoard(teamId, signal),
    refetchInterval: opts.refetchInterval,
  });
}

/**
 * Applies an `event: board` frame (its JSON text or the parsed value) of team
 * `teamId` to the cached boards: the team's and the all-teams list. When the
 * frame cannot be rendered on its own, those boards are reloaded instead. The
 * task's open detail and comments are always reloaded.
 */
export function applyBoardFrame(queryClient: QueryClient, teamId: string, frame: unknown): void {
  const f = parseBoardFrame(frame);
  if (f === null) {
    void queryClient.invalidateQueries({ queryKey: boardKey(teamId) });
    void queryClient.invalidateQueries({ queryKey: boardKey(null) });
    return;
  }
  for (const key of [boardKey(teamId), boardKey(null)]) {
    const cur = queryClient.getQueryData<Task[]>(key);
    if (cur === undefined) continue;
    const next = applyFrameToTasks(cur, f, teamId);
    if (next === null) void queryClient.invalidateQueries({ queryKey: key });
    else queryClient.setQueryData<Task[]>(key, next);
  }
  void queryClient.invalidateQueries({ queryKey: taskKey(f.id) });
}
