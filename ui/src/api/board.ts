// The board (docs/api.md "Board"; /api/tasks): one cached task list per team
// (or all teams), a task's detail with its comments and sub-tasks, and the
// writes. One key root, ['board']. Filters are applied on the page, not in
// the key, so a stream frame (features/board/use-board-stream.ts) patches one
// list that every filtered view reads. A write puts the changed task into
// every cached list it belongs to and reads its detail again (its open
// blockers may have changed), and its parent's sub-tasks.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { Task, TaskComment, TaskCreate, TaskPatch } from './types.ts';

const enc = encodeURIComponent;

/** GET /api/tasks caps at 2000 rows (docs/api.md "Board"). */
export const BOARD_LIMIT = 2000;

export const boardKeys = {
  all: ['board'] as const,
  lists: ['board', 'list'] as const,
  /** A team's tasks, or all teams' (null). */
  list: (teamId: string | null) => ['board', 'list', teamId] as const,
  /** One task's detail (GET /api/tasks/:id); its comments and sub-tasks live under it. */
  task: (taskId: string) => ['board', 'task', taskId] as const,
  comments: (taskId: string) => [...boardKeys.task(taskId), 'comments'] as const,
  subtasks: (taskId: string) => [...boardKeys.task(taskId), 'subtasks'] as const,
};

export interface BoardOptions {
  /** Poll every n ms (react-query pauses it in hidden tabs). */
  refetchInterval?: number | undefined;
}

export function useBoard(teamId: string | null, opts: BoardOptions = {}) {
  return useQuery({
    queryKey: boardKeys.list(teamId),
    queryFn: ({ signal }) => {
      const q = new URLSearchParams({ limit: String(BOARD_LIMIT) });
      if (teamId !== null) q.set('teamId', teamId);
      return api<{ tasks: Task[] }>(`/api/tasks?${q}`, { signal }).then((r) => r.tasks);
    },
    refetchInterval: opts.refetchInterval,
  });
}

export interface TaskDetail {
  task: Task;
  /** Ids of dependencies that are not done. */
  openBlockers: string[];
}

export function useTask(id: string) {
  return useQuery({ queryKey: boardKeys.task(id), queryFn: ({ signal }) => api<TaskDetail>(`/api/tasks/${enc(id)}`, { signal }) });
}

export function useComments(id: string) {
  return useQuery({
    queryKey: boardKeys.comments(id),
    queryFn: ({ signal }) => api<{ comments: TaskComment[] }>(`/api/tasks/${enc(id)}/comments`, { signal }).then((r) => r.comments),
  });
}

export function useSubtasks(id: string) {
  return useQuery({
    queryKey: boardKeys.subtasks(id),
    queryFn: ({ signal }) => api<{ tasks: Task[] }>(`/api/tasks?parentTaskId=${enc(id)}`, { signal }).then((r) => r.tasks),
  });
}

/** Replaces (or adds) the task in each cached board it belongs to. */
export function putTaskInBoards(qc: QueryClient, task: Task): void {
  for (const [key, list] of qc.getQueriesData<Task[]>({ queryKey: boardKeys.lists })) {
    if (!list) continue;
    const scope = key[2] as string | null;
    if (scope !== null && scope !== task.teamId) continue;
    const i = list.findIndex((t) => t.id === task.id);
    const next = [...list];
    if (i >= 0) next[i] = task;
    else next.push(task);
    qc.setQueryData(key, next);
  }
}

/** What every task write does with the task the server answers. */
function useTaskChanged() {
  const qc = useQueryClient();
  return (task: Task) => {
    putTaskInBoards(qc, task);
    void qc.invalidateQueries({ queryKey: boardKeys.task(task.id) });
    if (task.parentTaskId) void qc.invalidateQueries({ queryKey: boardKeys.subtasks(task.parentTaskId) });
  };
}

export function useCreateTask() {
  const changed = useTaskChanged();
  return useMutation({
    mutationFn: (body: TaskCreate) => api<{ task: Task }>('/api/tasks', { method: 'POST', body }).then((r) => r.task),
    onSuccess: changed,
  });
}

/** A move (status) or a new assignee. */
export function usePatchTask() {
  const changed = useTaskChanged();
  return useMutation({
    mutationFn: ({ id, ...body }: TaskPatch & { id: string }) => api<{ task: Task }>(`/api/tasks/${enc(id)}`, { method: 'PATCH', body }).then((r) => r.task),
    onSuccess: changed,
  });
}

export function useClaimTask() {
  const changed = useTaskChanged();
  return useMutation({
    mutationFn: ({ id, agentId }: { id: string; agentId: string }) =>
      api<{ task: Task }>(`/api/tasks/${enc(id)}/claim`, { method: 'POST', body: { agentId } }).then((r) => r.task),
    onSuccess: changed,
  });
}

export function useLinkTask() {
  const changed = useTaskChanged();
  return useMutation({
    mutationFn: ({ id, dependsOnTaskId }: { id: string; dependsOnTaskId: string }) =>
      api<{ task: Task }>(`/api/tasks/${enc(id)}/dependencies`, { method: 'POST', body: { dependsOnTaskId } }).then((r) => r.task),
    onSuccess: changed,
  });
}

export function useUnlinkTask() {
  const changed = useTaskChanged();
  return useMutation({
    mutationFn: ({ id, dependsOnTaskId }: { id: string; dependsOnTaskId: string }) =>
      api<{ task: Task }>(`/api/tasks/${enc(id)}/dependencies/${enc(dependsOnTaskId)}`, { method: 'DELETE' }).then((r) => r.task),
    onSuccess: changed,
  });
}

/** A comment as the person on the dashboard (no author agent); it is added to the cached comments. */
export function useAddComment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) =>
      api<{ comment: TaskComment }>(`/api/tasks/${enc(id)}/comments`, { method: 'POST', body: { body } }).then((r) => r.comment),
    onSuccess: (c) => {
      qc.setQueryData<TaskComment[]>(boardKeys.comments(c.taskId), (prev) => (prev?.some((x) => x.id === c.id) ? prev : [...(prev ?? []), c]));
    },
  });
}
