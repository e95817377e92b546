// Reads of the event log used by live streams (catch-up from a cursor).
import type { Db } from '../db/open.ts';
import { EVENT_COLUMNS_SQL, type EventRow } from './types.ts';

export interface ScopeFilter {
  teamId?: string | undefined;
  taskId?: string | undefined;
  agentId?: string | undefined;
}

export interface EventQueries {
  maxSeq(): number;
  /** Rows with cursor < seq <= upTo matching the scope, ascending, at most `limit`. */
  page(cursor: number, upTo: number, scope: ScopeFilter, limit: number): EventRow[];
}

export function createEventQueries(db: Db): EventQueries {
  const maxSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events').pluck();
  const page = db.prepare(
    `SELECT ${EVENT_COLUMNS_SQL} FROM events
     WHERE seq > @cursor AND seq <= @upTo
       AND (@teamId IS NULL OR team_id = @teamId)
       AND (@taskId IS NULL OR task_id = @taskId)
       AND (@agentId IS NULL OR agent_id = @agentId)
     ORDER BY seq LIMIT @limit`,
  );
  return {
    maxSeq: () => maxSeq.get() as number,
    page: (cursor, upTo, scope, limit) =>
      page.all({
        cursor,
        upTo,
        teamId: scope.teamId ?? null,
        taskId: scope.taskId ?? null,
        agentId: scope.agentId ?? null,
        limit,
      }) as EventRow[],
  };
}

export function matchesScope(row: { teamId: string | null; taskId: string | null; agentId: string | null }, scope: ScopeFilter): boolean {
  return (
    (scope.teamId === undefined || row.teamId === scope.teamId) &&
    (scope.taskId === undefined || row.taskId === scope.taskId) &&
    (scope.agentId === undefined || row.agentId === scope.agentId)
  );
}
