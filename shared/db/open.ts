// Opens svc's SQLite database: WAL, busy_timeout, foreign keys, migrated.
// A file whose schema is newer than this build's newest migration (a newer
// svc wrote it; this one is older, or a downgrade) is refused before anything
// is written to it, with a message saying what to do.
// Each thread (supervisor, each worker, each pool thread, each MCP binary)
// calls this once at start and passes the handle down; nothing caches it
// globally, so shared/ stays free of per-thread state.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDbFile } from '../fs-safe.ts';
import { LATEST_VERSION, migrate } from './migrations.ts';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
  /** Skip migrations (readers that must not write, such as a backup source). */
  migrate?: boolean;
  /**
   * false: this connection never checkpoints (the tail worker does, every few
   * seconds). A commit that crosses SQLite's auto-checkpoint threshold copies
   * the WAL into the file and syncs it before it returns: on a thread that
   * serves latency-bound work (the team-chat worker, whose commit precedes
   * each chat.send) that stalls whatever is waiting behind it.
   */
  autoCheckpoint?: boolean;
}

export const BUSY_TIMEOUT_MS = 5000;

/** The database was written by a newer svc: this build does not know its schema and will not touch it. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly path: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(`${path} has schema version ${found}, newer than this build knows (${known}): update svc, or restore a backup`);
    this.name = 'SchemaTooNewError';
  }
}

export function openDatabase(path: string, opts: OpenOptions = {}): Db {
  const readonly = opts.readonly ?? false;
  if (!readonly && path !== ':memory:' && path !== '') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // The rows hold transcripts, spend and settings: not for other users of the machine.
    ensurePrivateDbFile(path);
  }
  const db = new Database(path, { readonly, fileMustExist: readonly });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (!readonly && (opts.migrate ?? true)) {
    // Before any pragma that writes (journal_mode) and before migrating.
    const found = db.pragma('user_version', { simple: true }) as number;
    if (found > LATEST_VERSION) {
      db.close();
      throw new SchemaTooNewError(path, found, LATEST_VERSION);
    }
  }
  // Reads of a large event log (a trace, a team's window) touch pages all
  // over the file: a 32 MiB page cache and memory-mapped reads cut their time
  // by a third to a half in the obs-reads benchmark. Both grow only with use.
  db.pragma('cache_size = -32768');
  db.pragma('mmap_size = 268435456');
  db.pragma('foreign_keys = ON');
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives a process crash (kill -9), and the
    // file never corrupts; only an OS crash or power loss can lose the last
    // transactions. FULL would fsync every commit for that last guarantee.
    db.pragma('synchronous = NORMAL');
    if (opts.autoCheckpoint === false) setAutoCheckpoint(db, false);
    if (opts.migrate ?? true) migrate(db);
  }
  return db;
}

/** SQLite's own threshold (pages): a commit that crosses it checkpoints. */
const AUTO_CHECKPOINT_PAGES = 1000;

/** Whether this connection's commits checkpoint the WAL themselves (SQLite's default), or leave it to another thread. */
export function setAutoCheckpoint(db: Db, on: boolean): void {
  db.pragma(`wal_autocheckpoint = ${on ? AUTO_CHECKPOINT_PAGES : 0}`);
}

/** Copies what it can of the WAL into the main file without waiting for, or blocking, any writer. */
export function checkpointPassive(db: Db): void {
  db.pragma('wal_checkpoint(PASSIVE)');
}

/** Checkpoints the WAL into the main file and closes. Errors are the caller's to log. */
export function checkpointAndClose(db: Db): void {
  if (db.open) {
    if (!db.readonly) db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
}
