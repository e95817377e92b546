// GET /api/obs/errors: the error projection (spec "Observability"). Reads
// kind `error` only, the 500 newest by ts (ties: newest seq first), projects
// each row, then applies the harness-bug filter; harnessBugCount counts the
// whole 500-row window whatever the filter. An error whose class is missing
// is `Unknown`, and an `Unknown` error is a harness bug.
import type { Db } from '../db/open.ts';
import type { EventRow } from '../events/types.ts';
import { errorOf, parseData } from './event-data.ts';

export const ERROR_WINDOW = 500;

export interface ErrorEntry {
  seq: number;
  ts: number;
  taskId: string | null;
  agentId: string | null;
  runtime: string | null;
  errorClass: string;
  harnessBug: boolean;
  message: string;
}

export interface ErrorFeed {
  errors: ErrorEntry[];
  harnessBugCount: number;
}

type ErrorRow = Pick<EventRow, 'seq' | 'ts' | 'taskId' | 'agentId' | 'runtime' | 'data'>;

export interface ErrorsReader {
  /** `text` is the display redactor, applied to each message. */
  read(q: { harnessBugOnly: boolean; since?: number | undefined }, text: (s: string) => string): ErrorFeed;
}

export function createErrorsReader(db: Db): ErrorsReader {
  // Served by the (kind, ts) index (migration 4): walked backwards from the
  // newest ts, it stops after 500 rows instead of sorting every error.
  const cols = 'seq, ts, task_id AS taskId, agent_id AS agentId, runtime, data';
  const all = db.prepare(`SELECT ${cols} FROM events WHERE kind = 'error' ORDER BY ts DESC, seq DESC LIMIT ${ERROR_WINDOW}`);
  const since = db.prepare(
    `SELECT ${cols} FROM events WHERE kind = 'error' AND ts >= ? ORDER BY ts DESC, seq DESC LIMIT ${ERROR_WINDOW}`,
  );
  return {
    read(q, text) {
      const rows = (q.since === undefined ? all.all() : since.all(q.since)) as ErrorRow[];
      const projected = rows.map((r): ErrorEntry => {
        const { errorClass, message } = errorOf(parseData(r.data));
        return {
          seq: r.seq,
          ts: r.ts,
          taskId: r.taskId,
          agentId: r.agentId,
          runtime: r.runtime,
          errorClass,
          harnessBug: errorClass === 'Unknown',
          message: text(message),
        };
      });
      const harnessBugCount = projected.reduce((n, e) => n + (e.harnessBug ? 1 : 0), 0);
      return { errors: q.harnessBugOnly ? projected.filter((e) => e.harnessBug) : projected, harnessBugCount };
    },
  };
}
