// The board's filters: team (on /board only), assignee, status. Each change
// is a new history entry, so back and forward step through them.
import type { TaskStatus } from '../../api/types.ts';
import { hasFilters, NO_FILTERS, type BoardFilters } from './board-filters.ts';
import { STATUS_LABEL, STATUSES } from './statuses.ts';

const UNASSIGNED = ' unassigned';

export interface BoardFilterBarProps {
  filters: BoardFilters;
  showTeam: boolean;
  teams: ReadonlyArray<{ id: string; name: string }>;
  agentNames: ReadonlyMap<string, string>;
  onChange: (f: BoardFilters) => void;
}

export function BoardFilterBar({ filters, showTeam, teams, agentNames, onChange }: BoardFilterBarProps) {
  const assigneeValue = filters.unassigned ? UNASSIGNED : (filters.assignee ?? '');
  return (
    <div role="group" aria-label="Filters" className="flex flex-wrap items-end gap-3">
      {showTeam && (
        <label className="flex flex-col gap-1 text-sm">
          Team
          <select className="input w-auto" value={filters.team ?? ''} onChange={(e) => onChange({ ...filters, team: e.target.value || null })}>
            <option value="">All teams</option>
            {teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="flex flex-col gap-1 text-sm">
        Assignee
        <select
          className="input w-auto"
          value={assigneeValue}
          onChange={(e) => {
            const v = e.target.value;
            onChange({ ...filters, unassigned: v === UNASSIGNED, assignee: v === UNASSIGNED || v === '' ? null : v });
          }}
        >
          <option value="">Anyone</option>
          <option value={UNASSIGNED}>Unassigned</option>
          {[...agentNames.entries()].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
          {filters.assignee !== null && !agentNames.has(filters.assignee) && <option value={filters.assignee}>{filters.assignee}</option>}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Status
        <select className="input w-auto" value={filters.status ?? ''} onChange={(e) => onChange({ ...filters, status: (e.target.value || null) as TaskStatus | null })}>
          <option value="">All statuses</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      {hasFilters(filters) && (
        <button type="button" className="btn" onClick={() => onChange({ ...NO_FILTERS })}>
          Clear filters
        </button>
      )}
    </div>
  );
}
