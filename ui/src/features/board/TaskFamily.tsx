// A task's parent (the task it was delegated from) and its sub-tasks.
import { useSubtasks } from '../../api/board.ts';
import type { Task } from '../../api/types.ts';
import { ErrorState } from '../../components/States.tsx';
import { STATUS_LABEL } from './statuses.ts';

export function TaskFamily({ task, tasks, onOpen }: { task: Task; tasks: readonly Task[]; onOpen: (id: string) => void }) {
  const subs = useSubtasks(task.id);
  const parent = task.parentTaskId === null ? null : (tasks.find((t) => t.id === task.parentTaskId) ?? null);
  return (
    <section aria-labelledby="task-family-title" className="flex flex-col gap-2">
      <h3 id="task-family-title" className="font-semibold">
        Parent and sub-tasks
      </h3>
      <p className="text-sm">
        Parent:{' '}
        {task.parentTaskId === null ? (
          <span className="text-muted">none</span>
        ) : (
          <button type="button" className="text-left text-accent underline" onClick={() => onOpen(task.parentTaskId as string)}>
            {parent?.title ?? task.parentTaskId}
          </button>
        )}
      </p>
      {subs.isPending ? (
        <p className="text-sm text-muted">Loading sub-tasks…</p>
      ) : subs.error ? (
        <ErrorState error={subs.error} retry={() => void subs.refetch()} />
      ) : subs.data.length === 0 ? (
        <p className="text-sm text-muted">No sub-tasks.</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" aria-label="Sub-tasks">
          {subs.data.map((s) => (
            <li key={s.id} className="flex flex-wrap gap-2">
              <button type="button" className="text-left text-accent underline" onClick={() => onOpen(s.id)}>
                {s.title}
              </button>
              <span className="text-muted">{STATUS_LABEL[s.status]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
