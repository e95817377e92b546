// The board's last 24 hours for the fleet summary.
//
// - created: tasks whose created_at falls in the window;
// - completed: tasks now `done` whose completed_at falls in the window
//   (`cancelled` also stamps completed_at, but is not completion);
// - byStatus: the current status of every task created or changed in the
//   window (updated_at in the window);
// - verifications: the board's review step, read from the event log. A
//   verification is a `status_changed` event moving a task out of
//   `in_review`: to `done` passed, back to `in_progress` rejected, to
//   `cancelled` dropped. Field edits (from equal to to) are not counted.
//   Only board code writes status_changed (clients cannot ingest it).
import type { TaskStatus } from '../board/types.ts';
import type { Db } from '../db/open.ts';

export const ROLLUP_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface VerificationCounts {
  total: number;
  passed: number;
  rejected: number;
  cancelled: number;
}

export interface BoardRollup {
  windowHours: number;
  /** Start of the window (ms, inclusive). */
  since: number;
  created: number;
  completed: number;
  byStatus: Partial<Record<TaskStatus, number>>;
  verifications: VerificationCounts;
}

export function createBoardRollup(db: Db): (now: number) => BoardRollup {
  const countsStmt = db.prepare(
    `SELECT
       COALESCE(SUM(created_at >= @since), 0) AS created,
       COALESCE(SUM(status = 'done' AND completed_at >= @since), 0) AS completed
     FROM tasks`,
  );
  const byStatusStmt = db.prepare('SELECT status, COUNT(*) AS n FROM tasks WHERE updated_at >= @since GROUP BY status');
  // CASE guards json_extract: a malformed data blob counts as nothing rather
  // than failing the whole summary. The (kind, ts) index bounds the scan.
  const verificationsStmt = db.prepare(
    `SELECT to_status AS status, COUNT(*) AS n FROM (
       SELECT CASE WHEN json_valid(data) THEN json_extract(data, '$.from') END AS from_status,
              CASE WHEN json_valid(data) THEN json_extract(data, '$.to') END AS to_status
       FROM events WHERE kind = 'status_changed' AND ts >= @since
     ) WHERE from_status = 'in_review' AND to_status IN ('done', 'in_progress', 'cancelled')
     GROUP BY to_status`,
  );
  return (now) => {
    const since = now - ROLLUP_WINDOW_MS;
    const counts = countsStmt.get({ since }) as { created: number; completed: number };
    const byStatus: BoardRollup['byStatus'] = {};
    for (const r of byStatusStmt.all({ since }) as Array<{ status: TaskStatus; n: number }>) byStatus[r.status] = r.n;
    const verifications: VerificationCounts = { total: 0, passed: 0, rejected: 0, cancelled: 0 };
    for (const r of verificationsStmt.all({ since }) as Array<{ status: string; n: number }>) {
      const key = r.status === 'done' ? 'passed' : r.status === 'in_progress' ? 'rejected' : 'cancelled';
      verifications[key] += r.n;
      verifications.total += r.n;
    }
    return { windowHours: ROLLUP_WINDOW_MS / 3_600_000, since, created: counts.created, completed: counts.completed, byStatus, verifications };
  };
}
