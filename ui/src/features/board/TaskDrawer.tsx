// The task drawer: a task's details, the moves the board's rule allows
// (statuses.ts; the server may still refuse, and its message is shown),
// claim, assignee, dependencies, parent and sub-tasks, and comments.
import { useTask } from '../../api/board.ts';
import type { Task } from '../../api/types.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { Drawer } from './Drawer.tsx';
import { TaskComments } from './TaskComments.tsx';
import { TaskDependencies } from './TaskDependencies.tsx';
import { TaskActions } from './TaskActions.tsx';
import { TaskFamily } from './TaskFamily.tsx';

export interface TaskDrawerProps {
  taskId: string | null;
  /** The board's tasks: titles for ids, and the tasks a dependency can point at. */
  tasks: readonly Task[];
  agentNames: ReadonlyMap<string, string>;
  teamNames: ReadonlyMap<string, string>;
  onOpen: (id: string) => void;
  onClose: () => void;
}

export function TaskDrawer({ taskId, ...rest }: TaskDrawerProps) {
  return (
    <Drawer open={taskId !== null} title={taskId ? <DrawerTitle id={taskId} /> : ''} onClose={rest.onClose}>
      {taskId && <TaskBody key={taskId} id={taskId} {...rest} />}
    </Drawer>
  );
}

function DrawerTitle({ id }: { id: string }) {
  const q = useTask(id);
  return <>{q.data?.task.title ?? 'Task'}</>;
}

const when = (ms: number | null) => (ms === null ? null : new Date(ms).toLocaleString());

function TaskBody({ id, tasks, agentNames, teamNames, onOpen }: Omit<TaskDrawerProps, 'taskId'> & { id: string }) {
  const q = useTask(id);
  if (q.isPending) return <Loading what="task" />;
  if (q.error) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  const { task, openBlockers } = q.data;
  const who = (agentId: string | null, none: string) => (agentId === null ? none : (agentNames.get(agentId) ?? agentId));
  return (
    <div className="flex flex-col gap-5">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted">Team</dt>
        <dd>{task.teamId === null ? 'No team' : (teamNames.get(task.teamId) ?? task.teamId)}</dd>
        <dt className="text-muted">Created by</dt>
        <dd>{who(task.createdByAgentId, 'a person')}</dd>
        <dt className="text-muted">Created</dt>
        <dd>{when(task.createdAt)}</dd>
        {task.claimedAt !== null && (
          <>
            <dt className="text-muted">Claimed</dt>
            <dd>{when(task.claimedAt)}</dd>
          </>
        )}
        {task.completedAt !== null && (
          <>
            <dt className="text-muted">Completed</dt>
            <dd>{when(task.completedAt)}</dd>
          </>
        )}
      </dl>
      {task.description ? <p className="text-sm whitespace-pre-wrap">{task.description}</p> : <p className="text-sm text-muted">No description.</p>}
      <TaskActions task={task} openBlockers={openBlockers} agentNames={agentNames} />
      <TaskDependencies task={task} openBlockers={openBlockers} tasks={tasks} onOpen={onOpen} />
      <TaskFamily task={task} tasks={tasks} onOpen={onOpen} />
      <TaskComments taskId={task.id} agentNames={agentNames} />
    </div>
  );
}
