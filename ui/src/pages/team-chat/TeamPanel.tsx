// The chat's side panel: the team's task cards (its board, kept live by the
// stream's `event: board` frames) and the inline tray of its pending approvals.
import { Link, useLocation } from 'wouter';
import { useBoard } from '../../api/board.ts';
import type { Task } from '../../api/types.ts';
import { ErrorState } from '../../components/States.tsx';
import { ApprovalTray } from '../../features/approvals/index.ts';
import { TaskCard } from '../../features/board/index.ts';

/** Open work first, then the finished; newest first within each. */
const ORDER: Record<Task['status'], number> = { in_progress: 0, in_review: 1, blocked: 2, todo: 3, done: 4, cancelled: 5 };
/** Cards shown here; the board has them all. */
const SHOWN = 12;

function Tasks({ teamId, nameOf }: { teamId: string; nameOf: (agentId: string | null) => string }) {
  const board = useBoard(teamId);
  const [, navigate] = useLocation();
  const boardHref = `/teams/${encodeURIComponent(teamId)}/board`;
  if (board.isPending) {
    return (
      <p role="status" className="text-sm text-muted">
        Loading tasks…
      </p>
    );
  }
  if (board.error) return <ErrorState error={board.error} retry={() => void board.refetch()} />;
  const tasks = [...board.data].sort((a, b) => ORDER[a.status] - ORDER[b.status] || b.updatedAt - a.updatedAt);
  if (tasks.length === 0) return <p className="text-sm text-muted">No tasks yet. Tasks your agents create show up here.</p>;
  return (
    <>
      <ul className="flex flex-col gap-2" aria-label="Tasks">
        {tasks.slice(0, SHOWN).map((t) => (
          <li key={t.id}>
            <TaskCard task={t} assigneeName={t.assigneeAgentId ? nameOf(t.assigneeAgentId) : undefined} onOpen={(id) => navigate(`${boardHref}?task=${encodeURIComponent(id)}`)} />
          </li>
        ))}
      </ul>
      {tasks.length > SHOWN && (
        <Link href={boardHref} className="text-sm text-accent underline">
          All {tasks.length} tasks on the board
        </Link>
      )}
    </>
  );
}

export function TeamPanel({ teamId, nameOf }: { teamId: string; nameOf: (agentId: string | null) => string }) {
  return (
    <div className="flex flex-col">
      <ApprovalTray teamId={teamId} />
      <section aria-labelledby="tasks-title" className="flex flex-col gap-2 p-3">
        <h2 id="tasks-title" className="text-sm font-semibold">
          Tasks
        </h2>
        <Tasks teamId={teamId} nameOf={nameOf} />
      </section>
    </div>
  );
}
