// Numbered migrations, tracked in PRAGMA user_version. The schema exists only
// here; the health check derives "what the schema should be" by applying these
// to an in-memory database, so there is no second list to keep in step.
import Database from 'better-sqlite3';
import type { Db } from './open.ts';
import { migration0005 } from './migrations/0005-smaller-resources.ts';
import { migration0006 } from './migrations/0006-event-mask-version.ts';
import { migration0007 } from './migrations/0007-tools-broker.ts';
import { migration0008 } from './migrations/0008-memory-team-chat.ts';
import { migration0009 } from './migrations/0009-team-chat-room.ts';
import { migration0010 } from './migrations/0010-agent-tokens.ts';
import { migration0011 } from './migrations/0011-ingest-idempotency.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
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
  },
  {
    version: 2,
    name: 'teams, agents, lead briefs, the task board',
    sql: `
      CREATE TABLE teams (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        icon TEXT NOT NULL,
        color TEXT NOT NULL,
        color_collection_id TEXT,
        template_id TEXT,
        leader_agent_id TEXT,
        is_archived INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      -- team_id has no foreign key on purpose: the spec lets an agent be
      -- assigned to any team id, and deleting a team orphans its agents in
      -- the same transaction rather than deleting them.
      CREATE TABLE agents (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        team_id TEXT,
        status TEXT NOT NULL DEFAULT 'idle',
        gateway_id TEXT,
        runtime TEXT NOT NULL DEFAULT 'gateway',
        model TEXT,
        role TEXT NOT NULL DEFAULT 'member',
        is_archived INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX agents_team ON agents (team_id);
      CREATE INDEX agents_role ON agents (role, runtime);

      CREATE TABLE lead_team_briefs (
        team_id TEXT PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
        content TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      -- Tasks outlive their team (the event log refers to them), so team_id
      -- is a plain column. Ids are UUIDv7 (time-ordered).
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        team_id TEXT,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'todo',
        assignee_agent_id TEXT,
        created_by_agent_id TEXT,
        parent_task_id TEXT REFERENCES tasks (id) ON DELETE SET NULL,
        runtime TEXT,
        cost_usd REAL NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        claimed_at INTEGER,
        completed_at INTEGER
      );
      CREATE INDEX tasks_team ON tasks (team_id, updated_at);
      CREATE INDEX tasks_assignee ON tasks (assignee_agent_id);
      CREATE INDEX tasks_parent ON tasks (parent_task_id);

      -- task_id cannot start until depends_on_task_id is done.
      CREATE TABLE task_dependencies (
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        depends_on_task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (task_id, depends_on_task_id),
        CHECK (task_id <> depends_on_task_id)
      ) WITHOUT ROWID;
      CREATE INDEX task_dependencies_reverse ON task_dependencies (depends_on_task_id, task_id);

      CREATE TABLE task_comments (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        author_agent_id TEXT,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX task_comments_task ON task_comments (task_id, created_at);
    `,
  },
  {
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
  },
  {
    version: 4,
    name: 'events by kind and ts, for the error feed',
    sql: `
      -- GET /api/obs/errors reads the 500 newest errors by ts. With only
      -- (kind, seq) SQLite sorted every error row (113 ms at 111k errors in
      -- a 1M-event log); walked backwards, (kind, ts) stops after 500 rows.
      CREATE INDEX events_kind_ts ON events (kind, ts);
    `,
  },
  // From 5 on, one file per migration in ./migrations/.
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
];

export const LATEST_VERSION = MIGRATIONS.reduce((m, x) => Math.max(m, x.version), 0);

/**
 * Applies pending migrations. Several processes may open the file at once
 * (the server and the MCP stdio binaries), so the version is re-read inside
 * an IMMEDIATE transaction, which holds the write lock.
 */
export function migrate(db: Db): void {
  const current = () => db.pragma('user_version', { simple: true }) as number;
  if (current() >= LATEST_VERSION) return;
  const run = db.transaction(() => {
    const from = current();
    for (const m of MIGRATIONS) {
      if (m.version <= from) continue;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
  });
  run.immediate();
}

export interface DeclaredTable {
  name: string;
  columns: string[];
}

/** Tables and columns the migrations declare, read from a scratch in-memory database. */
export function declaredSchema(): DeclaredTable[] {
  const mem = new Database(':memory:');
  try {
    migrate(mem);
    return listTables(mem);
  } finally {
    mem.close();
  }
}

export function listTables(db: Db): DeclaredTable[] {
  const names = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .pluck()
    .all() as string[];
  return names.map((name) => ({
    name,
    columns: (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(name) as string[]),
  }));
}
