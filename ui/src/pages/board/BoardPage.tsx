// `/teams/:id/board` (one team, live through its chat stream's board frames)
// and `/board` (every team, polled every 5 s; react-query pauses the poll in
// a hidden tab). Filters live in the URL query, so back and forward and a
// reload keep them; the open task is `?task=<id>`. The gateway's Workboard
// cards (issue 23 item 5) show in the columns beside the tasks, polled on
// both pages (the team stream does not carry them); none without the plugin.
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { useAgents } from '../../api/agents.ts';
import { useBoard } from '../../api/board.ts';
import { useTeams } from '../../api/teams.ts';
import { useWorkboard } from '../../api/workboard.ts';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { BoardColumns } from '../../features/board/BoardColumns.tsx';
import { BoardFilterBar } from '../../features/board/BoardFilterBar.tsx';
import { filterTasks, hasFilters, NO_FILTERS, readFilters, writeFilters, type BoardFilters } from '../../features/board/board-filters.ts';
import { NewTaskDialog } from '../../features/board/NewTaskDialog.tsx';
import { TaskDrawer } from '../../features/board/TaskDrawer.tsx';
import { useBoardStream } from '../../features/board/use-board-stream.ts';
import { filterCards } from '../../features/board/workboard-cards.ts';
import { WorkboardCardDialog } from '../../features/board/WorkboardCard.tsx';

/** How often /board reloads every team's tasks. */
export const ALL_TEAMS_POLL_MS = 5_000;

export default function BoardPage({ params }: { params: Record<string, string | undefined> }) {
  const teamId = params.id ?? null;
  const [search, setSearch] = useSearchParams();
  const read = readFilters(search);
  const filters: BoardFilters = teamId === null ? read : { ...read, team: null };
  const openTask = search.get('task');

  const board = useBoard(teamId, { refetchInterval: teamId === null ? ALL_TEAMS_POLL_MS : undefined });
  useBoardStream(teamId);
  const workboard = useWorkboard(teamId, { refetchInterval: ALL_TEAMS_POLL_MS });
  const [openCard, setOpenCard] = useState<string | null>(null);
  const agents = useAgents();
  const teams = useTeams({ includeArchived: true });
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');

  const teamList = useMemo(() => (teams.data?.teams ?? []).map((t) => ({ id: t.id, name: t.isArchived ? `${t.name} (archived)` : t.name })), [teams.data]);
  const teamNames = useMemo(() => new Map(teamList.map((t) => [t.id, t.name])), [teamList]);
  const team = teamId === null ? null : teams.data?.teams.find((t) => t.id === teamId);
  const all = board.data ?? [];
  const shown = filterTasks(all, filters);
  const cards = workboard.data?.enabled ? workboard.data.cards : [];
  const shownCards = filterCards(cards, filters);
  const card = openCard === null ? null : (cards.find((c) => c.id === openCard) ?? null);

  const setFilters = (f: BoardFilters) => setSearch((p) => writeFilters(p, f));
  const open = (id: string) =>
    setSearch(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('task', id);
        return next;
      },
      { replace: true },
    );
  const close = () => {
    if (search.get('task') === null) return;
    setSearch(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('task');
        return next;
      },
      { replace: true },
    );
  };
  const base = teamId === null ? '' : `/teams/${encodeURIComponent(teamId)}`;

  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="page-title">Board</h1>
        {teamId !== null && (
          <p className="mr-auto flex items-center gap-2 text-muted">
            {team ? (
              <>
                <span aria-hidden="true">{team.icon}</span>
                <span className="font-medium text-text">{team.name}</span>
              </>
            ) : teams.isSuccess ? (
              <span>No team has this id.</span>
            ) : null}
            <Link href={base} className="btn">
              Chat
            </Link>
            <Link href={`${base}/settings`} className="btn">
              Settings
            </Link>
          </p>
        )}
        <button type="button" className="btn btn-primary ml-auto" onClick={() => setCreating(true)}>
          New task
        </button>
      </div>
      <BoardFilterBar filters={filters} showTeam={teamId === null} teams={teamList} agentNames={agents.names} onChange={setFilters} />
      <p role="status" aria-live="polite" className="text-sm text-muted empty:hidden">
        {notice}
      </p>
      {board.isPending ? (
        <Loading what="board" />
      ) : board.error ? (
        <ErrorState error={board.error} retry={() => void board.refetch()} />
      ) : all.length === 0 && cards.length === 0 ? (
        <Empty title="No tasks yet">
          <p>Tasks appear here when you or the agents create them.</p>
          <button type="button" className="btn btn-primary mt-3" onClick={() => setCreating(true)}>
            Create a task
          </button>
        </Empty>
      ) : shown.length === 0 && shownCards.length === 0 && hasFilters(filters) ? (
        <Empty title="No tasks match these filters">
          <button type="button" className="btn mt-1" onClick={() => setFilters({ ...NO_FILTERS })}>
            Clear filters
          </button>
        </Empty>
      ) : (
        <BoardColumns tasks={shown} only={filters.status} agentNames={agents.names} onOpen={open} cards={shownCards} onOpenCard={setOpenCard} />
      )}
      <NewTaskDialog
        open={creating}
        fixedTeam={teamId}
        defaultTeam={filters.team}
        teams={teamList}
        agentNames={agents.names}
        tasks={all}
        onClose={() => setCreating(false)}
        onCreated={(t) => {
          setCreating(false);
          setNotice(`Created ${t.title}.`);
        }}
      />
      <WorkboardCardDialog
        card={card}
        statuses={workboard.data?.statuses ?? []}
        assigneeName={card?.agentId ? agents.names.get(card.agentId) : undefined}
        onClose={() => setOpenCard(null)}
      />
      <TaskDrawer taskId={openTask} tasks={all} agentNames={agents.names} teamNames={teamNames} onOpen={open} onClose={close} />
    </section>
  );
}
