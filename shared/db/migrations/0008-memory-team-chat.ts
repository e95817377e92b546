// Migration 8: the memory store. Saved memories with their scope tags, an
// FTS5 index over them (external content, kept in step by triggers), and the
// optional embedding vectors. The team chat room is migration 9.
import type { Migration } from '../migration.ts';

export const migration0008: Migration = {
  version: 8,
  name: 'memory store: memories, full-text index, embedding vectors',
  sql: `
    -- seq is the FTS5 content rowid and the browse cursor. AUTOINCREMENT: a
    -- cursor must never be reused after a delete. team_id, agent_id and
    -- tenant_id are the scope tags (null = untagged); no foreign keys: memory
    -- outlives the team or agent it was saved for. tags is a JSON array.
    CREATE TABLE memories (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      team_id TEXT CHECK (team_id IS NULL OR length(team_id) <= 200),
      agent_id TEXT CHECK (agent_id IS NULL OR length(agent_id) <= 200),
      tenant_id TEXT CHECK (tenant_id IS NULL OR length(tenant_id) <= 200),
      kind TEXT NOT NULL DEFAULT 'note' CHECK (length(kind) <= 40),
      title TEXT NOT NULL DEFAULT '' CHECK (length(title) <= 200),
      tags TEXT NOT NULL DEFAULT '[]' CHECK (length(tags) <= 1000),
      content TEXT NOT NULL CHECK (length(content) BETWEEN 1 AND 16000),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX memories_team ON memories (team_id, seq);
    CREATE INDEX memories_agent ON memories (agent_id, seq);
    CREATE INDEX memories_tenant ON memories (tenant_id, seq);

    -- Porter stemming over unicode61 (diacritics folded): "deploying" finds "deploy".
    CREATE VIRTUAL TABLE memories_fts USING fts5(
      title, content, tags,
      content = 'memories', content_rowid = 'seq',
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
      INSERT INTO memories_fts (rowid, title, content, tags) VALUES (new.seq, new.title, new.content, new.tags);
    END;
    CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
      INSERT INTO memories_fts (memories_fts, rowid, title, content, tags) VALUES ('delete', old.seq, old.title, old.content, old.tags);
    END;
    CREATE TRIGGER memories_fts_update AFTER UPDATE OF title, content, tags ON memories BEGIN
      INSERT INTO memories_fts (memories_fts, rowid, title, content, tags) VALUES ('delete', old.seq, old.title, old.content, old.tags);
      INSERT INTO memories_fts (rowid, title, content, tags) VALUES (new.seq, new.title, new.content, new.tags);
    END;

    -- One embedding per memory when a provider was configured and answered:
    -- little-endian float32, dims values. model says which space it lives in.
    CREATE TABLE memory_vectors (
      memory_seq INTEGER PRIMARY KEY REFERENCES memories (seq) ON DELETE CASCADE,
      model TEXT NOT NULL,
      dims INTEGER NOT NULL,
      vector BLOB NOT NULL
    );
  `,
};
