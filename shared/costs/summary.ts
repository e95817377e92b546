// GET /api/cost-records/summary: the last 30 UTC calendar days (today and the
// 29 before it). Totals, the per-agent breakdown and the daily series cover
// the same window, so the series sums to the totals. SQLite aggregates
// (GROUP BY over the created_at index); only the 30 days are filled in here.
import type { Db } from '../db/open.ts';
import { SUMMARY_DAYS } from './schemas.ts';

export interface CostTotals {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  records: number;
}

export interface AgentCost extends CostTotals {
  agentId: string;
  /** The agent row's name; null when the agent has since been deleted. */
  name: string | null;
}

export interface DailyCost extends CostTotals {
  /** UTC day, `YYYY-MM-DD`. */
  date: string;
}

export interface CostSummary {
  days: number;
  /** Start of the window (UTC midnight, ms) and its exclusive end (next UTC midnight). */
  since: number;
  until: number;
  totals: CostTotals;
  /** Highest spend first. */
  byAgent: AgentCost[];
  /** Exactly `days` entries, oldest first, ending today. */
  daily: DailyCost[];
}

const DAY_MS = 86_400_000;

const SUMS_SQL = `COALESCE(SUM(c.cost_usd), 0) AS costUsd, COALESCE(SUM(c.input_tokens), 0) AS inputTokens,
  COALESCE(SUM(c.output_tokens), 0) AS outputTokens, COUNT(*) AS records`;
const WINDOW_SQL = 'c.created_at >= @since AND c.created_at < @until';

/** The window's bounds for the instant `now`: 30 whole UTC days ending with today. */
export function summaryWindow(now: number, days: number = SUMMARY_DAYS): { since: number; until: number } {
  const until = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  return { since: until - days * DAY_MS, until };
}

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every day of the window, oldest first; days with no rows are zeros. */
export function zeroFill(rows: readonly DailyCost[], since: number, days: number): DailyCost[] {
  const byDate = new Map(rows.map((r) => [r.date, r]));
  return Array.from({ length: days }, (_, i) => {
    const date = utcDate(since + i * DAY_MS);
    return byDate.get(date) ?? { date, costUsd: 0, inputTokens: 0, outputTokens: 0, records: 0 };
  });
}

export function createCostSummary(db: Db, now: () => number): () => CostSummary {
  const totalsStmt = db.prepare(`SELECT ${SUMS_SQL} FROM cost_records c WHERE ${WINDOW_SQL}`);
  // agents.id is the primary key, so a.name has one value per group.
  const byAgentStmt = db.prepare(
    `SELECT c.agent_id AS agentId, a.name AS name, ${SUMS_SQL}
     FROM cost_records c LEFT JOIN agents a ON a.id = c.agent_id
     WHERE ${WINDOW_SQL}
     GROUP BY c.agent_id
     ORDER BY costUsd DESC, c.agent_id`,
  );
  const dailyStmt = db.prepare(
    `SELECT strftime('%Y-%m-%d', c.created_at / 1000, 'unixepoch') AS date, ${SUMS_SQL}
     FROM cost_records c WHERE ${WINDOW_SQL}
     GROUP BY date`,
  );
  // One deferred read transaction (built once): the three aggregates see the same rows.
  const read = db.transaction((since: number, until: number): CostSummary => {
    const params = { since, until };
    return {
      days: SUMMARY_DAYS,
      since,
      until,
      totals: totalsStmt.get(params) as CostTotals,
      byAgent: byAgentStmt.all(params) as AgentCost[],
      daily: zeroFill(dailyStmt.all(params) as DailyCost[], since, SUMMARY_DAYS),
    };
  });
  return () => {
    const { since, until } = summaryWindow(now());
    return read(since, until);
  };
}
