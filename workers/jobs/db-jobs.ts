// Short database jobs for the piscina pool: work that can take more than a
// millisecond and must not block the front door's event loop. Each pool
// thread keeps one read-only connection per database file, opened the one
// way svc opens its database (shared/db/open.ts: busy timeout and pragmas).
import type { JobArg } from '../../shared/channels/jobs.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';

const connections = new Map<string, Db>();

function readOnly(dbPath: string): Db {
  let db = connections.get(dbPath);
  if (!db) {
    db = openDatabase(dbPath, { readonly: true });
    connections.set(dbPath, db);
  }
  return db;
}

/** PRAGMA integrity_check: ['ok'] when the file is sound. */
export function integrityCheck({ dbPath }: JobArg<'integrityCheck'>): string[] {
  const rows = readOnly(dbPath).pragma('integrity_check') as Array<Record<string, unknown>>;
  return rows.map((r) => String(Object.values(r)[0]));
}
