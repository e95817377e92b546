// The trailing window the fleet-health and graph folds read (spec "Limits":
// the most recent 5,000 events of the scope). Selected newest first, so the
// read stops after 5,000 index entries however long the log is (the primary
// key, or the (team_id, seq) index for a team), then handed to the folds in
// causal order: ascending seq.
import type { Db } from '../db/open.ts';
import type { EventKind } from '../events/kinds.ts';
import type { EventRow } from '../events/types.ts';

export const FOLD_WINDOW = 5000;

/** The columns the folds read. */
export type WindowRow = Pick<EventRow, 'seq' | 'ts' | 'kind' | 'teamId' | 'taskId' | 'agentId' | 'runtime' | 'data'>;

export interface WindowReader {
  /** The scope's most recent 5,000 events, ascending seq. */
  read(teamId: string | undefined): WindowRow[];
}

/** The kinds whose data a fold reads (shared/obs/event-data.ts); other rows carry `{}`. */
const DATA_KINDS = ['cost', 'task_created', 'task_claimed', 'status_changed', 'dep_linked', 'speaker_selected'];

type RawWindowRow = [number, number, EventKind, string | null, string | null, string | null, string | null, string];

export function createWindowReader(db: Db): WindowReader {
  // Raw (array) rows and no data text for rows no fold reads: on 5,000 rows
  // the driver's object and string construction was most of the read.
  const cols = `seq, ts, kind, team_id, task_id, agent_id, runtime,
    CASE WHEN kind IN (${DATA_KINDS.map((k) => `'${k}'`).join(', ')}) THEN data ELSE '{}' END`;
  const all = db.prepare(`SELECT ${cols} FROM events ORDER BY seq DESC LIMIT ${FOLD_WINDOW}`).raw();
  const team = db.prepare(`SELECT ${cols} FROM events WHERE team_id = ? ORDER BY seq DESC LIMIT ${FOLD_WINDOW}`).raw();
  return {
    read(teamId) {
      const raw = (teamId === undefined ? all.all() : team.all(teamId)) as RawWindowRow[];
      const rows: WindowRow[] = new Array<WindowRow>(raw.length);
      // Newest first from SQLite; the folds want ascending seq.
      for (let i = 0, n = raw.length; i < n; i++) {
        const r = raw[n - 1 - i] as RawWindowRow;
        rows[i] = { seq: r[0], ts: r[1], kind: r[2], teamId: r[3], taskId: r[4], agentId: r[5], runtime: r[6], data: r[7] };
      }
      return rows;
    },
  };
}
