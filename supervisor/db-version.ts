// "Has the database changed since I last looked?" for this connection, in one
// statement: SQLite's data_version moves when another connection (a worker
// thread, an MCP binary, another process) commits; total_changes() moves with
// every row this connection writes. Together they catch every write, so a
// response cached against them is never stale, whoever wrote.
import type { Db } from '../shared/db/open.ts';

export type DbVersion = () => string;

export function createDbVersion(db: Db): DbVersion {
  const stmt = db.prepare('SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c');
  return () => {
    const r = stmt.get() as { v: number; c: number };
    return `${r.v}:${r.c}`;
  };
}
