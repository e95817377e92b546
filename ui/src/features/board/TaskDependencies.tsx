// What a task waits for: its dependencies with their status, unlink, and
// link another task of the board (the server refuses a cycle or a self-link
// with its own message).
import { useState } from 'react';
import { useLinkTask, useUnlinkTask } from '../../api/board.ts';
import type { Task } from '../../api/types.ts';
import { STATUS_LABEL } from './statuses.ts';

export function TaskDependencies({ task, openBlockers, tasks, onOpen }: { task: Task; openBlockers: readonly string[]; tasks: readonly Task[]; onOpen: (id: string) => void }) {
  const link = useLinkTask();
  const unlink = useUnlinkTask();
  const [pick, setPick] = useState('');
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const candidates = tasks.filter((t) => t.id !== task.id && !task.dependsOn.includes(t.id) && t.teamId === task.teamId);
  const error = link.error ?? unlink.error;
  const fresh = () => {
    link.reset();
    unlink.reset();
  };
  return (
    <section aria-labelledby="task-deps-title" className="flex flex-col gap-2">
      <h3 id="task-deps-title" className="font-semibold">
        Depends on
      </h3>
      {task.dependsOn.length === 0 ? (
        <p className="text-sm text-muted">Nothing: the task can start at any time.</p>
      ) : (
        <ul className="flex flex-col gap-1" aria-label="Dependencies">
          {task.dependsOn.map((depId) => {
            const dep = byId.get(depId);
            const title = dep?.title ?? depId;
            return (
              <li key={depId} className="flex flex-wrap items-center gap-2 text-sm">
                <button type="button" className="text-left text-accent underline" onClick={() => onOpen(depId)}>
                  {title}
                </button>
                <span className="text-muted">
                  {dep ? STATUS_LABEL[dep.status] : ''}
                  {openBlockers.includes(depId) ? ' (unfinished)' : ''}
                </span>
                <button
                  type="button"
                  className="btn ml-auto py-0.5"
                  disabled={unlink.isPending}
                  onClick={() => {
                    fresh();
                    unlink.mutate({ id: task.id, dependsOnTaskId: depId });
                  }}
                >
                  Unlink<span className="sr-only"> {title}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (!pick) return;
          fresh();
          link.mutate({ id: task.id, dependsOnTaskId: pick }, { onSuccess: () => setPick('') });
        }}
      >
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          Add a dependency
          <select className="input" value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">{candidates.length === 0 ? 'No other task on this board' : 'Choose a task'}</option>
            {candidates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title} ({STATUS_LABEL[t.status]})
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn" disabled={!pick || link.isPending}>
          Link
        </button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error.message}
        </p>
      )}
    </section>
  );
}
