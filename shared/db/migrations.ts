// Numbered migrations, tracked in PRAGMA user_version. The schema exists only
// here; the health check derives "what the schema should be" by applying these
// to an in-memory database, so there is no second list to keep in step.
import Database from 'better-sqlite3';
import type { Migration } from './migration.ts';
import { migration0001 } from './migrations/0001-core-tables.ts';
import { migration0002 } from './migrations/0002-teams-board.ts';
import { migration0003 } from './migrations/0003-exec-settings.ts';
import { migration0004 } from './migrations/0004-events-kind-ts.ts';
import { migration0005 } from './migrations/0005-smaller-resources.ts';
import { migration0006 } from './migrations/0006-event-mask-version.ts';
import { migration0007 } from './migrations/0007-tools-broker.ts';
import { migration0008 } from './migrations/0008-memory-team-chat.ts';
import { migration0009 } from './migrations/0009-team-chat-room.ts';
import { migration0010 } from './migrations/0010-agent-tokens.ts';
import { migration0011 } from './migrations/0011-ingest-idempotency.ts';
import { migration0012 } from './migrations/0012-executions.ts';
import { migration0013 } from './migrations/0013-execution-parents.ts';
import { migration0014 } from './migrations/0014-approval-decisions.ts';
import { migration0015 } from './migrations/0015-budgets-model-calls.ts';
import { migration0016 } from './migrations/0016-task-origin.ts';
import { migration0017 } from './migrations/0017-settings-stamp.ts';

// open.ts's Db, named here from the driver so open.ts (which migrates on open)
// and this file do not import each other.
type Db = Database.Database;

/** In version order, one file per migration in ./migrations/. */
export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
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
