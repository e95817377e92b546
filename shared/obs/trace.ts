// GET /api/obs/traces/:traceId: a trace's events (seq ascending, the first
// 5,000) and its metrics (spec "Trace metrics"). Metrics are computed from
// the rows as stored, before rows stored under other masking rules are masked again.
import type { Db } from '../db/open.ts';
import type { EventKind } from '../events/kinds.ts';
import type { EventRow } from '../events/types.ts';
import { priceBookFor, type Prices } from '../pricing/index.ts';
import { MASK_RULES_VERSION } from '../redact.ts';
import { costOf, parseData, toolFailed } from './event-data.ts';
import { partsJoiner, pushArrayItems, type JsonParts } from './json-parts.ts';
import { MASKABLE_COLUMNS_SQL, ROW_JSON_SQL, maskStale, readMaskable } from './rows.ts';

export const TRACE_CAP = 5000;

export interface TraceMetrics {
  totalCostUsd: number;
  inputTokens: number;
  outputTokens: number;
  /** Failed tool results over all tool results; 0 when there are none. */
  toolErrorRate: number;
  toolCalls: number;
  toolErrors: number;
  eventCounts: Partial<Record<string, number>>;
  activeAgents: number;
  /** Output tokens per minute over the trace's ts window; 0 when it is under 1 s. */
  tokensPerMinute: number;
}

export interface Trace {
  traceId: string;
  events: EventRow[];
  metrics: TraceMetrics;
}

/** The kinds whose `data` the metrics read (the rest are counted by kind alone). */
const DATA_KINDS: readonly EventKind[] = ['tool_result', 'cost'];

/** What the metrics read of a row; `data` only for DATA_KINDS. */
export type MetricRow = Pick<EventRow, 'kind' | 'agentId' | 'ts' | 'data'>;

/** A cost without its USD is priced at `prices`. */
export function traceMetrics(rows: Iterable<MetricRow>, prices: Prices): TraceMetrics {
  let totalCostUsd = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let toolCalls = 0;
  let toolResults = 0;
  let toolErrors = 0;
  let first = Infinity;
  let last = -Infinity;
  const eventCounts: Partial<Record<string, number>> = {};
  const agents = new Set<string>();
  for (const r of rows) {
    eventCounts[r.kind] = (eventCounts[r.kind] ?? 0) + 1;
    if (r.agentId !== null) agents.add(r.agentId);
    if (r.ts < first) first = r.ts;
    if (r.ts > last) last = r.ts;
    if (r.kind === 'tool_call') toolCalls++;
    else if (r.kind === 'tool_result') {
      toolResults++;
      if (toolFailed(parseData(r.data))) toolErrors++;
    } else if (r.kind === 'cost') {
      const c = costOf(parseData(r.data), prices);
      totalCostUsd += c.usd;
      inputTokens += c.inputTokens;
      outputTokens += c.outputTokens;
    }
  }
  const windowMs = last >= first ? last - first : 0;
  return {
    totalCostUsd,
    inputTokens,
    outputTokens,
    toolErrorRate: toolResults > 0 ? toolErrors / toolResults : 0,
    toolCalls,
    toolErrors,
    eventCounts,
    activeAgents: agents.size,
    tokensPerMinute: windowMs >= 1000 ? outputTokens / (windowMs / 60_000) : 0,
  };
}

export interface TraceReader {
  read(traceId: string): Trace;
  /** The response body as parts (json-parts.ts): together, JSON.stringify(read(traceId)). */
  readParts(traceId: string): JsonParts;
}

export function createTraceReader(db: Db): TraceReader {
  const byTrace = `FROM events WHERE trace_id = ? ORDER BY seq LIMIT ${TRACE_CAP}`;
  const stmt = db.prepare(`SELECT ${MASKABLE_COLUMNS_SQL} ${byTrace}`).raw();
  // For the body: each row's JSON built by SQLite, and beside it only what
  // the metrics read, instead of 5,000 fifteen-field rows (the trace's p50
  // over HTTP fell by a tenth and what the read leaves to the collector by
  // half: obs-reads benchmark).
  const json = db
    .prepare(
      `SELECT ${ROW_JSON_SQL}, kind, agent_id, ts, CASE WHEN kind IN (${DATA_KINDS.map((k) => `'${k}'`).join(', ')}) THEN CAST(data AS TEXT) END,
        mask_version <> ${MASK_RULES_VERSION} ${byTrace}`,
    )
    .raw();

  const prices = priceBookFor(db);

  const read = (traceId: string): Trace => {
    const rows = readMaskable(stmt, traceId);
    // Metrics first: they read numbers, which masking never changes, and
    // the spec computes them from the events before the answer is masked.
    const metrics = traceMetrics(rows.rows, prices.current());
    return { traceId, events: maskStale(rows), metrics };
  };

  const head = (traceId: string) => `{"traceId":${JSON.stringify(traceId)},"events":[`;
  const tail = (metrics: TraceMetrics) => `],"metrics":${JSON.stringify(metrics)}}`;

  return {
    read,
    readParts(traceId) {
      // Rows are taken one at a time and their JSON joined into parts as
      // they come: a row's own string dies young, and no array of 5,000
      // rows lives across the read (with .all(), every row survived the
      // scavenges during the read and was promoted, ~6 MB per trace).
      const out: JsonParts = [head(traceId)];
      const joiner = partsJoiner(out);
      let stale = false;
      function* rows(): Generator<MetricRow> {
        for (const r of json.iterate(traceId) as Iterable<[string, EventKind, string | null, number, string | null, number]>) {
          if (r[5] !== 0) stale = true;
          joiner.add(r[0]);
          yield { kind: r[1], agentId: r[2], ts: r[3], data: r[4] ?? '{}' };
        }
      }
      const metrics = traceMetrics(rows(), prices.current());
      if (stale) {
        // Rows stored under other masking rules: built from objects, where they are masked again.
        const trace = read(traceId);
        const fallback: JsonParts = [head(traceId)];
        pushArrayItems(fallback, trace.events);
        fallback.push(tail(trace.metrics));
        return fallback;
      }
      joiner.end();
      out.push(tail(metrics));
      return out;
    },
  };
}
