// GET /api/obs/events: the filtered feed (spec "Observability"). Each
// combination of filters gets its own prepared statement (cached), written so
// that SQLite drives it from one (col, seq) index and walks it in seq order:
// a feed filtered by team, task, agent, trace or kind reads about `limit`
// index entries however long the log is. No `(@x IS NULL OR col = @x)`: that
// form hides the index from the planner. `since` (ts) has no index of its
// own; alone it walks the log in seq order until `limit` rows match (fast for
// a recent `since` read newest first, or an old one read oldest first).
import type { Db } from '../db/open.ts';
import type { Statement } from 'better-sqlite3';
import type { EventRow } from '../events/types.ts';
import { MASK_RULES_VERSION } from '../redact.ts';
import { pushArrayItems, pushSerialized, type JsonParts } from './json-parts.ts';
import { MASKABLE_COLUMNS_SQL, ROW_JSON_SQL, maskStale, readMaskable } from './rows.ts';

export const FEED_LIMIT_MIN = 1;
export const FEED_LIMIT_MAX = 5000;
export const FEED_LIMIT_DEFAULT = 500;

export interface FeedQuery {
  teamId?: string | undefined;
  taskId?: string | undefined;
  agentId?: string | undefined;
  traceId?: string | undefined;
  /** Already split and without blanks; empty means every kind. */
  kinds?: readonly string[] | undefined;
  /** ts >= since. */
  since?: number | undefined;
  /** seq > afterSeq. */
  afterSeq?: number | undefined;
  /** Already clamped to 1..5000. */
  limit: number;
  order: 'asc' | 'desc';
}

/** Filter, column, its (col, seq) index; most selective first: the first present one drives the read. */
const ID_FILTERS = [
  ['traceId', 'trace_id', 'events_trace'],
  ['taskId', 'task_id', 'events_task'],
  ['agentId', 'agent_id', 'events_agent'],
  ['teamId', 'team_id', 'events_team'],
] as const;

export function clampLimit(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return FEED_LIMIT_DEFAULT;
  return Math.min(FEED_LIMIT_MAX, Math.max(FEED_LIMIT_MIN, Math.trunc(n)));
}

/** Splits the `kinds` CSV; blank values are dropped, duplicates too. */
export function splitKinds(csv: string | undefined): string[] {
  if (csv === undefined) return [];
  return [...new Set(csv.split(',').map((k) => k.trim()).filter((k) => k !== ''))];
}

export interface Feed {
  read(q: FeedQuery): EventRow[];
  /** The response body `{"events":[...]}` as parts (json-parts.ts): together, JSON.stringify({ events: read(q) }). */
  readParts(q: FeedQuery): JsonParts;
}

export function createFeed(db: Db): Feed {
  const cache = new Map<string, { rows: Statement; json: Statement }>();

  const statementFor = (q: FeedQuery): { rows: Statement; json: Statement } => {
    const where: string[] = [];
    let key = '';
    let index: string | null = null;
    for (const [name, col, idx] of ID_FILTERS) {
      const on = q[name] !== undefined;
      key += on ? '1' : '0';
      if (on) where.push(`${col} = @${name}`);
      if (on) index ??= idx;
    }
    // The kinds travel as one JSON array parameter, so a statement does not
    // depend on how many kinds were asked for (a bounded statement cache).
    const kinds = (q.kinds?.length ?? 0) > 0;
    if (kinds) where.push('kind IN (SELECT value FROM json_each(@kinds))');
    if (kinds) index ??= 'events_kind';
    if (q.since !== undefined) where.push('ts >= @since');
    if (q.afterSeq !== undefined) where.push('seq > @afterSeq');
    key += `${kinds ? 1 : 0}${q.since !== undefined ? 1 : 0}${q.afterSeq !== undefined ? 1 : 0}${q.order}`;
    let stmt = cache.get(key);
    if (!stmt) {
      // INDEXED BY, not the planner's guess: without statistics it took
      // (kind, ts) for a kinds filter and sorted every row of those kinds
      // (51 ms at 1M events); a (col, seq) index walked in seq order stops
      // after `limit` matches.
      const from = `FROM events ${index ? `INDEXED BY ${index}` : ''} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
      const order = q.order === 'desc' ? 'DESC' : 'ASC';
      stmt = {
        rows: db.prepare(`SELECT ${MASKABLE_COLUMNS_SQL} ${from} ORDER BY seq ${order} LIMIT @limit`).raw(),
        // Each row's JSON built by SQLite (json_object), joined here into a
        // few parts (json-parts.ts says why not one string): no JS array,
        // object and ~15 values per row, a third less time for 500 rows and
        // little garbage. `stale` marks rows stored under other masking
        // rules: any, and the answer is built from objects instead, where
        // those rows are masked again.
        json: db
          .prepare(`SELECT ${ROW_JSON_SQL} AS j, mask_version <> ${MASK_RULES_VERSION} AS stale ${from} ORDER BY seq ${order} LIMIT @limit`)
          .raw(),
      };
      cache.set(key, stmt);
    }
    return stmt;
  };

  const paramsOf = (q: FeedQuery): Record<string, unknown> => {
    const params: Record<string, unknown> = { limit: q.limit };
    for (const [name] of ID_FILTERS) if (q[name] !== undefined) params[name] = q[name];
    if ((q.kinds?.length ?? 0) > 0) params.kinds = JSON.stringify(q.kinds);
    if (q.since !== undefined) params.since = q.since;
    if (q.afterSeq !== undefined) params.afterSeq = q.afterSeq;
    return params;
  };

  const read = (q: FeedQuery): EventRow[] => maskStale(readMaskable(statementFor(q).rows, paramsOf(q)));

  return {
    read,
    readParts(q) {
      const out: JsonParts = ['{"events":['];
      const rows = statementFor(q).json.all(paramsOf(q)) as Array<[string, number]>;
      if (rows.some((r) => r[1] !== 0)) pushArrayItems(out, read(q));
      else pushSerialized(out, rows.map((r) => r[0]));
      out.push(']}');
      return out;
    },
  };
}
