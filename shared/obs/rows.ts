// Event rows read in better-sqlite3's raw (array) mode and built here as
// plain object literals: on 5,000-row reads, the driver's per-property
// object construction cost about a third of the read. The columns are
// EVENT_COLUMNS_SQL's, in its order (the wire order of "Orchestration event row").
import type { Statement } from 'better-sqlite3';
import type { EventKind } from '../events/kinds.ts';
import { EVENT_COLUMNS_SQL, type EventRow } from '../events/types.ts';
import { MASK_RULES_VERSION } from '../redact.ts';
import { maskDataText } from './mask-row.ts';

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

/**
 * One row as a JSON object built by SQLite, in the wire order of
 * "Orchestration event row" (EVENT_COLUMNS_SQL's): the text JSON.stringify
 * gives for the row object (test/unit/obs-feed-json.test.ts). For rows stored
 * under the current masking rules only: `data` goes out as stored.
 */
export const ROW_JSON_SQL = `json_object('seq', seq, 'id', id, 'ts', ts, 'kind', kind, 'teamId', team_id, 'taskId', task_id,
  'agentId', agent_id, 'runtime', runtime, 'traceId', trace_id, 'spanId', span_id, 'parentSpanId', parent_span_id,
  'correlationId', correlation_id, 'data', CAST(data AS TEXT), 'tenantId', tenant_id, 'createdAt', created_at)`;

/** EVENT_COLUMNS_SQL plus mask_version: for reads that answer with masked data. */
export const MASKABLE_COLUMNS_SQL = `${EVENT_COLUMNS_SQL}, mask_version`;

export interface MaskableRows {
  rows: EventRow[];
  /** stale[i]: row i was stored under other masking rules (or by a writer that did not say). */
  stale: boolean[];
}

/** Runs a statement that selects MASKABLE_COLUMNS_SQL (raw mode). */
export function readMaskable(stmt: Statement, ...params: unknown[]): MaskableRows {
  const raw = stmt.all(...params) as Array<[...RawEventRow, number]>;
  return { rows: raw.map((r) => toEventRow(r as unknown as RawEventRow)), stale: raw.map((r) => r[15] !== MASK_RULES_VERSION) };
}

/**
 * Masks the data of the rows stored under other rules, in place. Rows svc
 * wrote under the current rules were masked on write, and masking twice
 * changes nothing (test/unit/mask-row.test.ts), so they are answered as stored.
 */
export function maskStale({ rows, stale }: MaskableRows): EventRow[] {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as EventRow;
    if (stale[i]) row.data = maskDataText(row.data);
  }
  return rows;
}
