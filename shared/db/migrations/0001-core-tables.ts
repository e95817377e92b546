// Migration 1: the settings table, chat transcript rows (the stream cursor) and
// the orchestration event log.
// The SQL text keeps the indentation it shipped with in shared/db/migrations.ts:
// sqlite_master stores it verbatim (test/unit/db.test.ts compares it).
import type { Migration } from '../migration.ts';

export const migration0001: Migration = {
  version: 1,
  name: 'settings, chat messages, orchestration event log',
  sql: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      -- One transcript entry (JSON) per row. AUTOINCREMENT: the row id is a
      -- stream cursor, so an id must never be reused after a delete.
      CREATE TABLE chat_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        entry_id TEXT NOT NULL UNIQUE,
        session_key TEXT NOT NULL,
        entry TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX chat_messages_session ON chat_messages (session_key, id);

      -- The orchestration event log: append-only, never pruned.
      CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        ts INTEGER NOT NULL,
        kind TEXT NOT NULL,
        team_id TEXT,
        task_id TEXT,
        agent_id TEXT,
        runtime TEXT,
        trace_id TEXT,
        span_id TEXT,
        parent_span_id TEXT,
        correlation_id TEXT,
        data TEXT NOT NULL DEFAULT '{}',
        tenant_id TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX events_team ON events (team_id, seq);
      CREATE INDEX events_task ON events (task_id, seq);
      CREATE INDEX events_agent ON events (agent_id, seq);
      CREATE INDEX events_trace ON events (trace_id, seq);
      CREATE INDEX events_kind ON events (kind, seq);
    `,
};
