// Migration 5: the smaller resources behind the dashboard (spec "Smaller
// resources"): cost records, graph layouts, personalities, skills, and the
// append-only governance audit log.
import type { Migration } from '../migration.ts';

export const migration0005: Migration = {
  version: 5,
  name: 'cost records, graph layouts, personalities, skills, the governance audit log',
  sql: `
    -- One run's token usage, priced when recorded (shared/pricing.ts).
    -- agent_id has no foreign key: a placeholder agent row is upserted first,
    -- but deleting an agent must not erase what was spent.
    CREATE TABLE cost_records (
      id TEXT PRIMARY KEY,
      agent_id TEXT NOT NULL,
      team_id TEXT,
      run_id TEXT,
      session_key TEXT,
      model TEXT,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      cost_usd REAL NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX cost_records_created ON cost_records (created_at);
    CREATE INDEX cost_records_agent ON cost_records (agent_id, created_at);

    -- Node positions of the delegation graph, per layout name and gateway URL.
    CREATE TABLE graph_layouts (
      name TEXT NOT NULL,
      gateway_url TEXT NOT NULL,
      layout TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (name, gateway_url)
    ) WITHOUT ROWID;

    CREATE TABLE agent_personalities (
      agent_id TEXT PRIMARY KEY,
      trait_values TEXT NOT NULL,
      custom_text TEXT,
      updated_at INTEGER NOT NULL
    );

    -- agent_ids is a JSON array of the agents holding the skill; the row
    -- goes when the last holder is removed.
    CREATE TABLE skills (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      source TEXT NOT NULL,
      body TEXT NOT NULL,
      category TEXT,
      agent_ids TEXT NOT NULL DEFAULT '[]',
      fingerprint TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

    -- The governance forensic audit log: append-only. The triggers make
    -- that a property of the table, not a habit of the code.
    CREATE TABLE governance_audit (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      ts INTEGER NOT NULL,
      kind TEXT NOT NULL,
      agent_id TEXT,
      subject TEXT,
      summary TEXT NOT NULL,
      data TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX governance_audit_kind ON governance_audit (kind, seq);
    CREATE TRIGGER governance_audit_no_update BEFORE UPDATE ON governance_audit
      BEGIN SELECT RAISE(ABORT, 'governance_audit is append-only'); END;
    CREATE TRIGGER governance_audit_no_delete BEFORE DELETE ON governance_audit
      BEGIN SELECT RAISE(ABORT, 'governance_audit is append-only'); END;
  `,
};
