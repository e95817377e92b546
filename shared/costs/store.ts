// The cost_records table: one place for every read and write of a cost row.
// A row is priced when recorded, by the price book over the same database
// (shared/pricing: a price set in svc, the gateway's configured prices, then the price library),
// so a later change of a price never rewrites what was spent.
import type { AgentStore } from '../agents/store.ts';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { uuidv7 } from '../ids.ts';
import { priceBookFor, type PriceBook } from '../pricing/index.ts';
import type { CostListQuery, CostRecordCreate } from './schemas.ts';
import { createCostSummary, type CostSummary } from './summary.ts';

export interface CostRecord {
  id: string;
  agentId: string;
  teamId: string | null;
  runId: string | null;
  sessionKey: string | null;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  createdAt: number;
}

/**
 * A cost row's usage as svc records it: the route's fields, plus the cache
 * tokens among the input (priced apart where configured), and the price a
 * caller already settled at (the model endpoint: its ledger, its cost event
 * and this row agree even when a price changes between), else the book's.
 */
export type CostRecordInput = CostRecordCreate & { cacheReadTokens?: number; cacheWriteTokens?: number; costUsd?: number };

export interface CostRecords {
  /** Newest first, at most `limit` rows. */
  list(query: CostListQuery): CostRecord[];
  /** Prices and inserts one run's usage, upserting a placeholder agent row in the same transaction. */
  record(input: CostRecordInput): CostRecord;
  /** The book rows are priced by: what prices the same calls elsewhere (a run's total, a settlement) agrees with the row. */
  prices: PriceBook;
  /** The last 30 UTC days: totals, per agent, per day (zero-filled). */
  summary(): CostSummary;
}

export const COST_COLUMNS_SQL = `id, agent_id AS agentId, team_id AS teamId, run_id AS runId, session_key AS sessionKey,
  model, input_tokens AS inputTokens, output_tokens AS outputTokens, cost_usd AS costUsd, created_at AS createdAt`;

export function createCostRecords(deps: { db: Db; tx: Tx; agents: AgentStore; now?: () => number }): CostRecords {
  const { db, tx, agents, now = Date.now } = deps;
  // id breaks ties within one millisecond: UUIDv7 ids are time-ordered.
  const listStmt = db.prepare(
    `SELECT ${COST_COLUMNS_SQL} FROM cost_records
     WHERE (@agentId IS NULL OR agent_id = @agentId)
       AND (@teamId IS NULL OR team_id = @teamId)
     ORDER BY created_at DESC, id DESC
     LIMIT @limit`,
  );
  const insertStmt = db.prepare(
    `INSERT INTO cost_records (id, agent_id, team_id, run_id, session_key, model, input_tokens, output_tokens, cost_usd, created_at)
     VALUES (@id, @agentId, @teamId, @runId, @sessionKey, @model, @inputTokens, @outputTokens, @costUsd, @createdAt)`,
  );
  const summary = createCostSummary(db, now);
  const prices = priceBookFor(db);

  return {
    list: (q) => listStmt.all({ agentId: q.agentId ?? null, teamId: q.teamId ?? null, limit: q.limit }) as CostRecord[],
    record(input) {
      const createdAt = now();
      const row: CostRecord = {
        id: uuidv7(createdAt),
        agentId: input.agentId,
        teamId: input.teamId,
        runId: input.runId,
        sessionKey: input.sessionKey,
        model: input.model,
        inputTokens: input.inputTokens,
        outputTokens: input.outputTokens,
        costUsd: input.costUsd ?? prices.costOf({
          model: input.model,
          inputTokens: input.inputTokens,
          outputTokens: input.outputTokens,
          cacheReadTokens: input.cacheReadTokens,
          cacheWriteTokens: input.cacheWriteTokens,
        }),
        createdAt,
      };
      // Together: a cost row never lands without its agent row, nor the
      // placeholder agent without the cost that called for it.
      tx.run(() => {
        agents.ensure(input.agentId);
        insertStmt.run(row);
      });
      return row;
    },
    summary,
    prices,
  };
}
