// Migration 15: budgets, their reservations, and one row per model call
// (issue 22). svc stands in front of every model call of the gateway it
// manages: before a call is forwarded its estimated cost is reserved under
// every budget that applies; when the stream ends the reservation is settled
// to the call's actual cost, or released. Money is stored in micro-USD
// integers (a call of a cheap model costs a fraction of a cent); the spec's
// cents are derived when a row is read.
import type { Migration } from '../migration.ts';

export const migration0015: Migration = {
  version: 15,
  name: 'budgets, budget reservations and model calls',
  sql: `
    CREATE TABLE budgets (
      id TEXT PRIMARY KEY,
      scope TEXT NOT NULL,
      scope_id TEXT NOT NULL,
      -- '' = every model; else the one model this budget counts.
      model TEXT NOT NULL DEFAULT '',
      mode TEXT NOT NULL,
      period TEXT NOT NULL DEFAULT 'none',
      limit_usd_cents INTEGER NOT NULL,
      spent_micro_usd INTEGER NOT NULL DEFAULT 0,
      reserved_micro_usd INTEGER NOT NULL DEFAULT 0,
      grace_usd_cents INTEGER NOT NULL DEFAULT 0,
      status TEXT NOT NULL,
      warned_pct INTEGER NOT NULL DEFAULT 0,
      period_start INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (scope, scope_id, model)
    ) WITHOUT ROWID;
    CREATE INDEX budgets_updated ON budgets (updated_at DESC);

    CREATE TABLE budget_reservations (
      call_id TEXT NOT NULL,
      budget_id TEXT NOT NULL,
      amount_micro_usd INTEGER NOT NULL,
      state TEXT NOT NULL,
      settled_micro_usd INTEGER,
      created_at INTEGER NOT NULL,
      closed_at INTEGER,
      PRIMARY KEY (call_id, budget_id)
    ) WITHOUT ROWID;
    CREATE INDEX budget_reservations_open ON budget_reservations (state) WHERE state = 'open';

    CREATE TABLE model_calls (
      id TEXT PRIMARY KEY,
      agent_id TEXT NOT NULL,
      team_id TEXT,
      task_id TEXT,
      session_key TEXT,
      run_id TEXT,
      trace_id TEXT,
      provider TEXT NOT NULL,
      api TEXT NOT NULL,
      model TEXT,
      input_tokens INTEGER,
      output_tokens INTEGER,
      cache_read_tokens INTEGER,
      cache_write_tokens INTEGER,
      estimate_usd REAL,
      cost_usd REAL,
      ttft_ms REAL,
      duration_ms REAL,
      outcome TEXT NOT NULL,
      http_status INTEGER,
      budget_id TEXT,
      started_at INTEGER NOT NULL,
      ended_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX model_calls_started ON model_calls (started_at DESC);
    CREATE INDEX model_calls_run ON model_calls (run_id) WHERE run_id IS NOT NULL;
    CREATE INDEX model_calls_session ON model_calls (session_key, started_at);
    CREATE INDEX model_calls_open ON model_calls (outcome) WHERE outcome = 'open';
  `,
};
