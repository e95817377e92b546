// Event rows read in better-sqlite3's raw (array) mode and built here as
// plain object literals: on 5,000-row reads, the driver's per-property
// object construction cost about a third of the read. The columns are
// EVENT_COLUMNS_SQL's, in its order (the wire order of "Orchestration event row").
import type { Statement } from 'better-sqlite3';
import type { EventKind } from '../events/kinds.ts';
import type { EventRow } from '../events/types.ts';

type RawEventRow = [
  number, string, number, EventKind, string | null, string | null, string | null, string | null,
  string | null, string | null, string | null, string | null, string, string | null, number,
];

export function toEventRow(r: RawEventRow): EventRow {
  return {
    seq: r[0], id: r[1], ts: r[2], kind: r[3], teamId: r[4], taskId: r[5], agentId: r[6], runtime: r[7],
    traceId: r[8], spanId: r[9], parentSpanId: r[10], correlationId: r[11], data: r[12], tenantId: r[13], createdAt: r[14],
  };
}

/** Runs a statement that selects EVENT_COLUMNS_SQL (prepared in raw mode) and builds the rows. */
export function allEventRows(stmt: Statement, ...params: unknown[]): EventRow[] {
  return (stmt.all(...params) as RawEventRow[]).map(toEventRow);
}
