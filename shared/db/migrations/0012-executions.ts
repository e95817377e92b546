// Migration 12: one row per agent run the team-chat orchestrator starts or
// cancels (spec "Team chat run effects": tracked runs and not-yet-fired
// delegations get a `cancelled` row). A row is written `running` before the
// gateway is asked, so a crash leaves it behind; the worker's recovery closes
// every `running` row it did not start itself (shared/team-chat/runs/executions.ts).
// A room post written by a peer-chat exchange names its exchange in a side
// table (an ALTER of team_chat_posts would rewrite its shipped CREATE text).
import type { Migration } from '../migration.ts';

export const migration0012: Migration = {
  version: 12,
  name: 'team chat executions, exchange posts',
  sql: `
    CREATE TABLE executions (
      id TEXT PRIMARY KEY,
      team_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      session_key TEXT NOT NULL,
      run_id TEXT,
      task_id TEXT,
      trigger TEXT NOT NULL,
      chain_id TEXT NOT NULL,
      trace_id TEXT NOT NULL,
      span_id TEXT NOT NULL,
      parent_span_id TEXT,
      status TEXT NOT NULL,
      error TEXT,
      model TEXT,
      input_tokens INTEGER,
      output_tokens INTEGER,
      cost_usd REAL,
      started_at INTEGER NOT NULL,
      ended_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX executions_running ON executions (status) WHERE status = 'running';
    CREATE INDEX executions_team ON executions (team_id, agent_id, started_at);
    CREATE INDEX executions_chain ON executions (chain_id);
    CREATE INDEX executions_task ON executions (task_id) WHERE task_id IS NOT NULL;
    CREATE TABLE team_chat_exchange_posts (
      post_id INTEGER PRIMARY KEY REFERENCES team_chat_posts (id) ON DELETE CASCADE,
      exchange_id TEXT NOT NULL
    );
  `,
};
