// Migration 9: the team chat room that the teamchat MCP server posts to and
// reads from (spec "Tools broker and MCP": room `team:<teamId>`). The row id
// is the subscribe cursor, so AUTOINCREMENT: an id is never reused.
import type { Migration } from '../migration.ts';

export const migration0009: Migration = {
  version: 9,
  name: 'team chat room posts',
  sql: `
    CREATE TABLE team_chat_posts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      room TEXT NOT NULL,
      author_agent_id TEXT NOT NULL,
      text TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX team_chat_posts_room ON team_chat_posts (room, id);
  `,
};
