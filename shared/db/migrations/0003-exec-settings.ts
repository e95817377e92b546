// Migration 3: per-agent exec settings and the last good read of the gateway's
// exec approvals document.
// The SQL text keeps the indentation it shipped with in shared/db/migrations.ts:
// sqlite_master stores it verbatim (test/unit/db.test.ts compares it).
import type { Migration } from '../migration.ts';

export const migration0003: Migration = {
  version: 3,
  name: 'exec settings, the last good read of the gateway exec approvals document',
  sql: `
      -- One row per agent id; config is the JSON object { execAsk?, execSecurity? }
      -- as last posted. No foreign key: the spec lets settings exist for any
      -- agent id, and the local row is written before the gateway is asked.
      CREATE TABLE exec_settings (
        agent_id TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      -- The document-wide counts from the last successful read of the
      -- gateway's exec approvals document, keyed by the gateway database path:
      -- what an "unreadable" answer shows when the gateway's own row cannot be
      -- read at all (a file that is not SQLite).
      CREATE TABLE exec_allowlist_last_read (
        gateway_db TEXT PRIMARY KEY,
        agent_count INTEGER NOT NULL,
        allowlist_count INTEGER NOT NULL,
        saved_at_ms INTEGER NOT NULL,
        read_at INTEGER NOT NULL
      );
    `,
};
