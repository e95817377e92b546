// `svc backup [dest] [-f]`: an online, consistent copy of svc.db made with
// SQLite's backup API through a read-only connection, so it is safe while
// the server is writing and works with no server at all.
import { existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/open.ts';

/** better-sqlite3's largest page count per backup step. */
const ALL_PAGES = 0x7fffffff;

export class BackupError extends Error {
  override name = 'BackupError';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `svc-backup-YYYYMMDD-HHMMSS.db` in local time. */
export function backupFileName(now: Date): string {
  const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `svc-backup-${date}-${time}.db`;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    // Missing (the usual case for a new file name) or unreadable: not a
    // directory we could write into, so the path is taken literally.
    return false;
  }
}

/** Omitted: a timestamped file in cwd; an existing directory: a timestamped file inside; else the literal path. */
export function resolveBackupDest(dest: string | undefined, cwd: string, now: Date): string {
  if (dest === undefined || dest === '') return join(cwd, backupFileName(now));
  const abs = resolve(cwd, dest);
  return isDirectory(abs) ? join(abs, backupFileName(now)) : abs;
}

export interface BackupOptions {
  source: string;
  dest: string | undefined;
  force: boolean;
  cwd: string;
  now?: Date;
}

/** Copies the database; returns the destination path. Throws BackupError with a user-facing message. */
export async function runBackup(opts: BackupOptions): Promise<string> {
  const dest = resolveBackupDest(opts.dest, opts.cwd, opts.now ?? new Date());
  if (!existsSync(opts.source)) throw new BackupError(`no database to back up at ${opts.source}`);
  if (existsSync(dest)) {
    if (!opts.force) throw new BackupError(`${dest} already exists (use --force to overwrite it)`);
    rmSync(dest, { force: true });
  }
  let db;
  try {
    db = openDatabase(opts.source, { readonly: true, migrate: false });
  } catch (err) {
    throw new BackupError(`cannot open ${opts.source}: ${(err as Error).message}`);
  }
  try {
    // All remaining pages in one step, inside one read transaction: the copy
    // is a single consistent snapshot, and a server writing between small
    // steps cannot force SQLite to restart the backup over and over.
    await db.backup(dest, { progress: () => ALL_PAGES });
  } catch (err) {
    // A half-written copy must not pass for a backup.
    rmSync(dest, { force: true });
    throw new BackupError(`backup to ${dest} failed: ${(err as Error).message}`);
  } finally {
    db.close();
  }
  return dest;
}
