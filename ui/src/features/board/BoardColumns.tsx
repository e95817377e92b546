// The board's columns, one per status (only the filtered one when a status
// filter is set), each a titled list of task cards, then the gateway's
// Workboard cards whose status maps to that column (issue 23 item 5).
import type { Task, TaskStatus, WorkboardCard } from '../../api/types.ts';
import { groupByStatus } from './board-filters.ts';
import { STATUS_LABEL, STATUSES } from './statuses.ts';
import { TaskCard } from './TaskCard.tsx';
import { groupCardsByColumn } from './workboard-cards.ts';
import { WorkboardCardButton } from './WorkboardCard.tsx';

export interface BoardColumnsProps {
  tasks: readonly Task[];
  only: TaskStatus | null;
  agentNames: ReadonlyMap<string, string>;
  onOpen: (id: string) => void;
  /** Workboard cards (none when the gateway has no Workboard) and how to open one. */
  cards?: readonly WorkboardCard[];
  onOpenCard?: (id: string) => void;
}

export function BoardColumns({ tasks, only, agentNames, onOpen, cards = [], onOpenCard = () => undefined }: BoardColumnsProps) {
  const groups = groupByStatus(tasks);
  const wb = groupCardsByColumn(cards);
  const columns = only === null ? STATUSES : [only];
  return (
    <div className="flex flex-col gap-3 md:flex-row md:overflow-x-auto md:pb-2">
      {columns.map((s) => (
        <section key={s} aria-labelledby={`col-${s}`} className="flex flex-col gap-2 rounded-lg bg-surface-2 p-2 md:w-64 md:shrink-0">
          <div className="flex items-center justify-between px-1 text-sm">
            <h2 id={`col-${s}`} className="font-semibold">
              {STATUS_LABEL[s]}
            </h2>
            <span className="text-muted">
              {groups[s].length + wb[s].length}
              <span className="sr-only"> {wb[s].length > 0 ? (groups[s].length + wb[s].length === 1 ? 'card' : 'cards') : groups[s].length === 1 ? 'task' : 'tasks'}</span>
            </span>
          </div>
          {groups[s].length + wb[s].length === 0 ? (
            <p className="px-1 text-xs text-muted">No tasks</p>
          ) : (
            <ul className="flex flex-col gap-2" aria-labelledby={`col-${s}`}>
              {groups[s].map((t) => (
                <li key={t.id}>
                  <TaskCard task={t} onOpen={onOpen} assigneeName={t.assigneeAgentId ? agentNames.get(t.assigneeAgentId) : undefined} />
                </li>
              ))}
              {wb[s].map((c) => (
                <li key={`workboard-${c.id}`}>
                  <WorkboardCardButton card={c} onOpen={onOpenCard} assigneeName={c.agentId ? agentNames.get(c.agentId) : undefined} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
