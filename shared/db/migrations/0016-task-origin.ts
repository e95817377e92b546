// Migration 16 (issue 30 #3): where a board task was created. A task created
// through svc's tasks MCP server, which only agents use, has a row here
// with origin `mcp`, so the team-chat orchestrator delivers it even when it
// names no creator (the spec's attach snippet carries no identity). A task
// without a row came the person's way (the dashboard, the routes) or existed
// before this migration, which svc cannot tell apart: origin `api`, so
// nothing old starts running by itself after an upgrade. A side table
// rather than a column, as team_chat_exchange_posts (migration 12): adding a
// column would rewrite the tasks table's CREATE text that shipped.
import type { Migration } from '../migration.ts';

export const migration0016: Migration = {
  version: 16,
  name: 'task origins',
  sql: `
    CREATE TABLE task_origins (
      task_id TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
      origin TEXT NOT NULL
    ) WITHOUT ROWID;
  `,
};
