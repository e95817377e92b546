// `/teams`: every team with its agent count; create, rename, archive or
// unarchive, delete. Archived teams show behind a toggle kept in the URL
// (`?archived=1`), so a reload or a shared link keeps it.
import { useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { usePatchTeam, useTeams } from '../../api/teams.ts';
import type { Team } from '../../api/types.ts';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { CreateTeamDialog, DeleteTeamDialog, ImportTeamDialog, RenameTeamDialog, TeamRow } from '../../features/teams/index.ts';

export default function TeamsPage() {
  const [params, setParams] = useSearchParams();
  const showArchived = params.get('archived') === '1';
  const teams = useTeams({ includeArchived: showArchived });
  const patch = usePatchTeam();
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [, navigate] = useLocation();
  const [renaming, setRenaming] = useState<Team | null>(null);
  const [deleting, setDeleting] = useState<Team | null>(null);
  const [notice, setNotice] = useState('');
  /** The team just created: its next step (agents) is offered beside the notice. */
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);
  const [failure, setFailure] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  // A row that leaves the list takes the focus with it: give it to the heading.
  const refocus = () => requestAnimationFrame(() => {
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus();
  });
  const toggleArchived = (on: boolean) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (on) next.set('archived', '1');
      else next.delete('archived');
      return next;
    });
  const archive = (team: Team, archived: boolean) => {
    setFailure('');
    patch.mutate(
      { id: team.id, isArchived: archived ? 1 : 0 },
      {
        onSuccess: () => {
          setNotice(archived ? `Archived ${team.name}.${showArchived ? '' : ' Show archived teams to see it.'}` : `Unarchived ${team.name}.`);
          refocus();
        },
        onError: (err) => setFailure(err.message),
      },
    );
  };

  const list = teams.data?.teams ?? [];
  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mr-auto">
          Teams
        </h1>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={showArchived} onChange={(e) => toggleArchived(e.target.checked)} />
          Show archived
        </label>
        <button type="button" className="btn" onClick={() => setImporting(true)}>
          Import from gateway
        </button>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New team
        </button>
      </div>
      <p role="status" aria-live="polite" className="text-sm text-muted empty:hidden">
        {notice}
        {created && notice.startsWith('Created') && (
          <>
            {' '}
            <Link href={`/teams/${encodeURIComponent(created.id)}/settings`} className="text-accent underline">
              Add agents to {created.name}
            </Link>
          </>
        )}
      </p>
      {failure && (
        <p role="alert" className="text-sm text-danger">
          {failure}
        </p>
      )}
      {teams.isPending ? (
        <Loading what="teams" />
      ) : teams.error ? (
        <ErrorState error={teams.error} retry={() => void teams.refetch()} />
      ) : list.length === 0 ? (
        <Empty title="No teams yet">
          <p>A team is a group of agents with a shared chat, board and rules.{showArchived ? '' : ' Archived teams are hidden.'}</p>
          <button type="button" className="btn btn-primary mt-3" onClick={() => setCreating(true)}>
            Create a team
          </button>
        </Empty>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Teams">
          {list.map((team) => (
            <TeamRow
              key={team.id}
              team={team}
              busy={patch.isPending && patch.variables.id === team.id}
              onRename={setRenaming}
              onArchive={archive}
              onDelete={setDeleting}
            />
          ))}
        </ul>
      )}
      <CreateTeamDialog open={creating} onClose={() => setCreating(false)} onCreated={(t) => {
          setCreated({ id: t.id, name: t.name });
          setNotice(`Created ${t.name}.`);
        }}
      />
      <ImportTeamDialog open={importing} onClose={() => setImporting(false)} onImported={(t) => navigate(`/teams/${encodeURIComponent(t.id)}`)} />
      <RenameTeamDialog
        team={renaming}
        onClose={() => setRenaming(null)}
        onRenamed={(t) => {
          setRenaming(null);
          setNotice(`Renamed to ${t.name}.`);
        }}
      />
      <DeleteTeamDialog
        team={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(t) => {
          setDeleting(null);
          setNotice(`Deleted ${t.name}. Its agents were kept.`);
          refocus();
        }}
      />
    </section>
  );
}
