// Workboard cards under the board's filters and columns (issue 23 item 5).
// Plain functions (no React, no DOM) for node:test. A card has no svc task
// status: it is filtered and grouped by the column its Workboard status maps
// to (the server's `column`).
import type { TaskStatus, WorkboardCard } from '../../api/types.ts';
import type { BoardFilters } from './board-filters.ts';
import { STATUSES } from './statuses.ts';

export function filterCards(cards: readonly WorkboardCard[], f: BoardFilters): WorkboardCard[] {
  return cards.filter(
    (c) =>
      (f.team === null || c.teamIds.includes(f.team)) &&
      (f.unassigned ? c.agentId === null : f.assignee === null || c.agentId === f.assignee) &&
      (f.status === null || c.column === f.status),
  );
}

export function groupCardsByColumn(cards: readonly WorkboardCard[]): Record<TaskStatus, WorkboardCard[]> {
  const out = Object.fromEntries(STATUSES.map((s) => [s, [] as WorkboardCard[]])) as Record<TaskStatus, WorkboardCard[]>;
  for (const c of cards) out[c.column].push(c);
  return out;
}

/** Workboard's own words for a status (`ready` → `Ready`). */
export function workboardStatusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}
