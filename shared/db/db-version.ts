// "Has the database changed since I last looked?", asked on every request
// that is served from a cache, so it must cost next to nothing and never miss
// a write, whoever made it (this connection, a worker thread, an MCP binary,
// another process).
//
// In WAL mode every commit, by any connection, rewrites the WAL-index header
// at the start of the `-shm` file (https://www.sqlite.org/walformat.html,
// "The WAL-Index Header": a change counter, the last frame, salts and a
// checksum; a stable format, since processes running different SQLite
// versions share it). Reading those bytes is one pread (~0.8 µs), where the
// SQL equivalent (`PRAGMA data_version` plus `total_changes()` for this
// connection's own commits) needs a read transaction and measured ~5 µs under
// load, an eighth of this server's CPU per cached request.
//
// The header is kept in two copies that a writer updates one after the other;
// copies that differ mean a commit in progress and count as a change. The
// file cannot be replaced under us: SQLite deletes it only when the last
// connection closes, and `db` stays open while this is used. Where there is
// no -shm file to read (an in-memory or read-only database, another VFS), the
// SQL query is used instead.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Db } from './open.ts';

export interface DbVersion {
  /** A number that differs from the previous answer whenever a commit has happened since. */
  (): number;
  /** Releases the file descriptor (idempotent). */
  close(): void;
}

const HEADER = 48;

export function createDbVersion(db: Db, onFallback: (err: unknown) => void): DbVersion {
  const sql = db.prepare('SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c');
  const viaSql = () => {
    const r = sql.get() as { v: number; c: number };
    // data_version is small (it counts other connections' commits), total_changes below 2^32 in practice.
    return r.v * 2 ** 32 + r.c;
  };

  let fd: number | null | undefined; // undefined: not tried yet; null: no -shm, use SQL
  const buf = Buffer.alloc(HEADER * 2);
  const last = Buffer.alloc(HEADER); // all zeros: never a valid header (isInit is 1)
  let generation = 0;

  const open = (): number | null => {
    if (db.memory || db.readonly || (db.pragma('journal_mode', { simple: true }) as string) !== 'wal') return null;
    try {
      return openSync(`${db.name}-shm`, 'r');
    } catch (err) {
      onFallback(err);
      return null;
    }
  };

  const version = (() => {
    if (fd === undefined) fd = open();
    if (fd === null) return viaSql();
    const n = readSync(fd, buf, 0, HEADER * 2, 0);
    const first = buf.subarray(0, HEADER);
    if (n < HEADER * 2 || !first.equals(buf.subarray(HEADER))) {
      // Mid-commit (or not yet initialised): a change; forget the last header
      // so that the next settled read counts as one too.
      last.fill(0);
      return ++generation;
    }
    if (!first.equals(last)) {
      first.copy(last);
      generation++;
    }
    return generation;
  }) as DbVersion;
  version.close = () => {
    if (typeof fd === 'number') closeSync(fd);
    fd = null;
  };
  return version;
}
