// The model_calls table (migration 15): one row per model call that passed
// svc's model endpoint. A row is inserted `open` before the call is forwarded,
// so a call in flight when svc dies is still on record; it is finished once
// (tokens, cost, timings, outcome) when the stream ends. At boot every row
// still `open` becomes `interrupted`, costed at its estimate, the same amount
// the budget ledger settles an open reservation at.
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import { uuidv7 } from '../ids.ts';

export const MODEL_CALL_OUTCOMES = ['open', 'ok', 'refused', 'upstream_error', 'aborted', 'cut', 'capped', 'ended', 'interrupted'] as const;
export type ModelCallOutcome = (typeof MODEL_CALL_OUTCOMES)[number];

/** GET /api/model-calls query: every filter optional, newest first. */
export const ModelCallListQuerySchema = z.object({
  runId: z.string().min(1).max(200).optional(),
  sessionKey: z.string().min(1).max(400).optional(),
  agentId: z.string().min(1).max(200).optional(),
  teamId: z.string().min(1).max(200).optional(),
  traceId: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ModelCallListQuery = z.infer<typeof ModelCallListQuerySchema>;

export interface ModelCall {
  id: string;
  agentId: string;
  teamId: string | null;
  taskId: string | null;
  sessionKey: string | null;
  runId: string | null;
  traceId: string | null;
  provider: string;
  api: string;
  model: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  estimateUsd: number | null;
  costUsd: number | null;
  ttftMs: number | null;
  durationMs: number | null;
  outcome: ModelCallOutcome;
  httpStatus: number | null;
  budgetId: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** What a call is known by before it is forwarded: the row's attribution, its estimate and its start (ms). */
export type OpenModelCall = Pick<ModelCall, 'agentId' | 'teamId' | 'taskId' | 'sessionKey' | 'runId' | 'traceId' | 'provider' | 'api' | 'model'> & {
  estimateUsd: number;
  startedAt: number;
};

/** How a call ended: the row's figures (ms for times) and its outcome. */
export type ModelCallEnd = Partial<
  Pick<ModelCall, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'costUsd' | 'ttftMs' | 'durationMs' | 'httpStatus' | 'budgetId'>
> & {
  outcome: Exclude<ModelCallOutcome, 'open'>;
  endedAt: number;
};

export interface ModelCalls {
  /** Inserts the `open` row of a call about to be forwarded; returns its id. */
  open(call: OpenModelCall): string;
  /** Ends an `open` row once; false when it was no longer open. */
  finish(id: string, end: ModelCallEnd): boolean;
  get(id: string): ModelCall | null;
  list(query: ModelCallListQuery): ModelCall[];
  /** Boot: every `open` row → `interrupted`, costed at its estimate. Returns those rows as they are now. */
  recoverOpen(now?: number): ModelCall[];
}

const COLUMNS = `id, agent_id AS agentId, team_id AS teamId, task_id AS taskId, session_key AS sessionKey, run_id AS runId,
  trace_id AS traceId, provider, api, model, input_tokens AS inputTokens, output_tokens AS outputTokens,
  cache_read_tokens AS cacheReadTokens, cache_write_tokens AS cacheWriteTokens, estimate_usd AS estimateUsd,
  cost_usd AS costUsd, ttft_ms AS ttftMs, duration_ms AS durationMs, outcome, http_status AS httpStatus,
  budget_id AS budgetId, started_at AS startedAt, ended_at AS endedAt`;

type Stored = Omit<ModelCall, 'startedAt' | 'endedAt'> & { startedAt: number; endedAt: number | null };

const toWire = (r: Stored): ModelCall => ({
  ...r,
  startedAt: new Date(r.startedAt).toISOString(),
  endedAt: r.endedAt === null ? null : new Date(r.endedAt).toISOString(),
});

export function createModelCalls(db: Db, now: () => number = Date.now): ModelCalls {
  const insert = db.prepare(
    `INSERT INTO model_calls (id, agent_id, team_id, task_id, session_key, run_id, trace_id, provider, api, model,
       estimate_usd, outcome, started_at)
     VALUES (@id, @agentId, @teamId, @taskId, @sessionKey, @runId, @traceId, @provider, @api, @model,
       @estimateUsd, 'open', @startedAt)`,
  );
  const finish = db.prepare(
    `UPDATE model_calls SET outcome = @outcome, input_tokens = @inputTokens, output_tokens = @outputTokens,
       cache_read_tokens = @cacheReadTokens, cache_write_tokens = @cacheWriteTokens, cost_usd = @costUsd,
       ttft_ms = @ttftMs, duration_ms = @durationMs, http_status = @httpStatus, budget_id = @budgetId, ended_at = @endedAt
     WHERE id = @id AND outcome = 'open'`,
  );
  const byId = db.prepare(`SELECT ${COLUMNS} FROM model_calls WHERE id = ?`);
  // id breaks ties within one millisecond: UUIDv7 ids are time-ordered.
  const list = db.prepare(
    `SELECT ${COLUMNS} FROM model_calls
     WHERE (@runId IS NULL OR run_id = @runId)
       AND (@sessionKey IS NULL OR session_key = @sessionKey)
       AND (@agentId IS NULL OR agent_id = @agentId)
       AND (@teamId IS NULL OR team_id = @teamId)
       AND (@traceId IS NULL OR trace_id = @traceId)
     ORDER BY started_at DESC, id DESC LIMIT @limit`,
  );
  const recover = db.prepare(
    `UPDATE model_calls SET outcome = 'interrupted', cost_usd = estimate_usd, ended_at = ? WHERE outcome = 'open' RETURNING ${COLUMNS}`,
  );
  return {
    open(call) {
      const id = uuidv7(call.startedAt);
      insert.run({ id, ...call });
      return id;
    },
    finish(id, end) {
      return (
        finish.run({
          id,
          outcome: end.outcome,
          inputTokens: end.inputTokens ?? null,
          outputTokens: end.outputTokens ?? null,
          cacheReadTokens: end.cacheReadTokens ?? null,
          cacheWriteTokens: end.cacheWriteTokens ?? null,
          costUsd: end.costUsd ?? null,
          ttftMs: end.ttftMs ?? null,
          durationMs: end.durationMs ?? null,
          httpStatus: end.httpStatus ?? null,
          budgetId: end.budgetId ?? null,
          endedAt: end.endedAt,
        }).changes === 1
      );
    },
    get(id) {
      const r = byId.get(id) as Stored | undefined;
      return r ? toWire(r) : null;
    },
    list(q) {
      const rows = list.all({
        runId: q.runId ?? null,
        sessionKey: q.sessionKey ?? null,
        agentId: q.agentId ?? null,
        teamId: q.teamId ?? null,
        traceId: q.traceId ?? null,
        limit: q.limit,
      }) as Stored[];
      return rows.map(toWire);
    },
    recoverOpen: (at = now()) => (recover.all(at) as Stored[]).map(toWire),
  };
}
