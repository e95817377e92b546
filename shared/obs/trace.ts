// GET /api/obs/traces/:traceId: a trace's events (seq ascending, the first
// 5,000) and its metrics (spec "Trace metrics"). Metrics are computed from
// the rows as stored, before rows stored under other masking rules are masked again.
import type { Db } from '../db/open.ts';
import type { EventRow } from '../events/types.ts';
import { costOf, parseData, toolFailed } from './event-data.ts';
import { MASKABLE_COLUMNS_SQL, maskStale, readMaskable } from './rows.ts';

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

export function traceMetrics(rows: readonly EventRow[]): TraceMetrics {
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
      const c = costOf(parseData(r.data));
      totalCostUsd += c.usd;
      inputTokens += c.inputTokens;
      outputTokens += c.outputTokens;
    }
  }
  const windowMs = rows.length > 0 ? last - first : 0;
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
}

export function createTraceReader(db: Db): TraceReader {
  const stmt = db.prepare(`SELECT ${MASKABLE_COLUMNS_SQL} FROM events WHERE trace_id = ? ORDER BY seq LIMIT ${TRACE_CAP}`).raw();
  return {
    read(traceId) {
      const read = readMaskable(stmt, traceId);
      // Metrics first: they read numbers, which masking never changes, and
      // the spec computes them from the events before the answer is masked.
      const metrics = traceMetrics(read.rows);
      return { traceId, events: maskStale(read), metrics };
    },
  };
}
