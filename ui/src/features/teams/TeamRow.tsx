// One team in the list: icon on its colour, name (to its chat), agent count,
// links to its board and settings, and rename / archive / delete.
import { Link } from 'wouter';
import type { Team } from '../../api/types.ts';

export interface TeamRowProps {
  team: Team;
  busy: boolean;
  onRename: (team: Team) => void;
  onArchive: (team: Team, archived: boolean) => void;
  onDelete: (team: Team) => void;
}

const Hidden = ({ children }: { children: string }) => <span className="sr-only"> {children}</span>;

export function TeamRow({ team, busy, onRename, onArchive, onDelete }: TeamRowProps) {
  const archived = team.isArchived === 1;
  const base = `/teams/${encodeURIComponent(team.id)}`;
  return (
    <li className="card flex flex-wrap items-center gap-3" data-team-id={team.id}>
      <span aria-hidden="true" className="grid size-10 shrink-0 place-items-center rounded-md text-xl" style={{ backgroundColor: team.color }}>
        {team.icon}
      </span>
      <div className="min-w-0 flex-1">
        <h2 className="truncate font-semibold">
          <Link href={base} className="hover:underline">
            {team.name}
          </Link>
        </h2>
        <p className="text-sm text-muted">
          {team.agentCount === 1 ? '1 agent' : `${team.agentCount} agents`}
          {archived && <span className="ml-2 rounded-full border border-border px-2 text-xs">Archived</span>}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Link href={base} className="btn">
          Chat<Hidden>{team.name}</Hidden>
        </Link>
        <Link href={`${base}/board`} className="btn">
          Board<Hidden>{team.name}</Hidden>
        </Link>
        <Link href={`${base}/settings`} className="btn">
          Settings<Hidden>{team.name}</Hidden>
        </Link>
        <button type="button" className="btn" onClick={() => onRename(team)} disabled={busy}>
          Rename<Hidden>{team.name}</Hidden>
        </button>
        <button type="button" className="btn" onClick={() => onArchive(team, !archived)} disabled={busy}>
          {archived ? 'Unarchive' : 'Archive'}
          <Hidden>{team.name}</Hidden>
        </button>
        <button type="button" className="btn btn-danger" onClick={() => onDelete(team)} disabled={busy}>
          Delete<Hidden>{team.name}</Hidden>
        </button>
      </div>
    </li>
  );
}
