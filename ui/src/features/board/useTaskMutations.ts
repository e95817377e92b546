// Board writes (docs/api.md "Board"): create, patch (move, assign), claim,
// dependencies, comments. A changed task is written into every cached board
// list and its detail reloaded (its open blockers may have changed).
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Task, TaskComment, TaskCreate, TaskPatch } from '../../api/types.ts';
import { taskKey } from './useBoard.ts';

const enc = encodeURIComponent;

/** Replaces (or adds) the task in each cached board it belongs to. */
export function putTaskInBoards(qc: QueryClient, task: Task): void {
  for (const [key, list] of qc.getQueriesData<Task[]>({ queryKey: ['board'] })) {
    if (!list) continue;
    const scope = key[1] as string | null;
    if (scope !== null && scope !== task.teamId) continue;
    const i = list.findIndex((t) => t.id === task.id);
    const next = [...list];
    if (i >= 0) next[i] = task;
    else next.push(task);
    qc.setQueryData(key, next);
  }
}

export function useTaskMutations() {
  const qc = useQueryClient();
  const changed = (task: Task) => {
    putTaskInBoards(qc, task);
    void qc.invalidateQueries({ queryKey: taskKey(task.id) });
    if (task.parentTaskId) void qc.invalidateQueries({ queryKey: [...taskKey(task.parentTaskId), 'subtasks'] });
  };
  return {
    create: useMutation({
      mutationFn: (body: TaskCreate) => api<{ task: Task }>('/api/tasks', { method: 'POST', body }).then((r) => r.task),
      onSuccess: changed,
    }),
    patch: useMutation({
      mutationFn: ({ id, ...body }: TaskPatch & { id: string }) =>
        api<{ task: Task }>(`/api/tasks/${enc(id)}`, { method: 'PATCH', body }).then((r) => r.task),
      onSuccess: changed,
    }),
    claim: useMutation({
      mutationFn: ({ id, agentId }: { id: string; agentId: string }) =>
        api<{ task: Task }>(`/api/tasks/${enc(id)}/claim`, { method: 'POST', body: { agentId } }).then((r) => r.task),
      onSuccess: changed,
    }),
    link: useMutation({
      mutationFn: ({ id, dependsOnTaskId }: { id: string; dependsOnTaskId: string }) =>
        api<{ task: Task }>(`/api/tasks/${enc(id)}/dependencies`, { method: 'POST', body: { dependsOnTaskId } }).then((r) => r.task),
      onSuccess: changed,
    }),
    unlink: useMutation({
      mutationFn: ({ id, dependsOnTaskId }: { id: string; dependsOnTaskId: string }) =>
        api<{ task: Task }>(`/api/tasks/${enc(id)}/dependencies/${enc(dependsOnTaskId)}`, { method: 'DELETE' }).then((r) => r.task),
      onSuccess: changed,
    }),
    comment: useMutation({
      mutationFn: ({ id, body }: { id: string; body: string }) =>
        api<{ comment: TaskComment }>(`/api/tasks/${enc(id)}/comments`, { method: 'POST', body: { body } }).then((r) => r.comment),
      onSuccess: (c) => {
        qc.setQueryData<TaskComment[]>([...taskKey(c.taskId), 'comments'], (prev) => (prev?.some((x) => x.id === c.id) ? prev : [...(prev ?? []), c]));
      },
    }),
  };
}
