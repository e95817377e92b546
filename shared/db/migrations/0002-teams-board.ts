// Migration 2: teams, agents, lead briefs and the task board (spec "Teams",
// "Agents", "Task board").
// The SQL text keeps the indentation it shipped with in shared/db/migrations.ts:
// sqlite_master stores it verbatim (test/unit/db.test.ts compares it).
import type { Migration } from '../migration.ts';

export const migration0002: Migration = {
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
};
