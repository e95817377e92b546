// Migration 11: idempotency keys of POST /api/obs/ingest (issue 15 #17). A
// key is recorded in the same transaction as its batch's rows, with the
// answer it got and a digest of the body, so a retried batch is answered
// without being stored twice. Keys older than 24 h are pruned on write
// (shared/events/ingest-keys.ts).
import type { Migration } from '../migration.ts';

export const migration0011: Migration = {
  version: 11,
  name: 'ingest idempotency keys',
  sql: `
    CREATE TABLE ingest_keys (
      key TEXT PRIMARY KEY,
      body_sha256 TEXT NOT NULL,
      count INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX ingest_keys_created ON ingest_keys (created_at);
  `,
};
