// Short database jobs for the piscina pool: work that can take more than a
// millisecond and must not block the front door's event loop. Each pool
// thread keeps one read-only connection per database file.
import Database from 'better-sqlite3';
import type { Db } from '../../shared/db/open.ts';
import { BUSY_TIMEOUT_MS } from '../../shared/db/open.ts';

const connections = new Map<string, Db>();

function readOnly(dbPath: string): Db {
  let db = connections.get(dbPath);
  if (!db) {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    connections.set(dbPath, db);
  }
  return db;
}

/** PRAGMA integrity_check: ['ok'] when the file is sound. */
export function integrityCheck({ dbPath }: { dbPath: string }): string[] {
  const rows = readOnly(dbPath).pragma('integrity_check') as Array<Record<string, unknown>>;
  return rows.map((r) => String(Object.values(r)[0]));
}
