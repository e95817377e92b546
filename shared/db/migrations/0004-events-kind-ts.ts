// Migration 4: an index on events by (kind, ts) for the error feed.
// The SQL text keeps the indentation it shipped with in shared/db/migrations.ts:
// sqlite_master stores it verbatim (test/unit/db.test.ts compares it).
import type { Migration } from '../migration.ts';

export const migration0004: Migration = {
  version: 4,
  name: 'events by kind and ts, for the error feed',
  sql: `
      -- GET /api/obs/errors reads the 500 newest errors by ts. With only
      -- (kind, seq) SQLite sorted every error row (113 ms at 111k errors in
      -- a 1M-event log); walked backwards, (kind, ts) stops after 500 rows.
      CREATE INDEX events_kind_ts ON events (kind, ts);
    `,
};
