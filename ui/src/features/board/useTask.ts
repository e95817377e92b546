// One task's detail for the drawer: the task with its open blockers, its
// comments and its sub-tasks, all under ['task', id].
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Task, TaskComment } from '../../api/types.ts';
import { taskKey } from './useBoard.ts';

const enc = encodeURIComponent;

export interface TaskDetail {
  task: Task;
  /** Ids of dependencies that are not done. */
  openBlockers: string[];
}

export function useTask(id: string) {
  return useQuery({ queryKey: taskKey(id), queryFn: ({ signal }) => api<TaskDetail>(`/api/tasks/${enc(id)}`, { signal }) });
}

export function useComments(id: string) {
  return useQuery({
    queryKey: [...taskKey(id), 'comments'],
    queryFn: ({ signal }) => api<{ comments: TaskComment[] }>(`/api/tasks/${enc(id)}/comments`, { signal }).then((r) => r.comments),
  });
}

export function useSubtasks(id: string) {
  return useQuery({
    queryKey: [...taskKey(id), 'subtasks'],
    queryFn: ({ signal }) => api<{ tasks: Task[] }>(`/api/tasks?parentTaskId=${enc(id)}`, { signal }).then((r) => r.tasks),
  });
}
