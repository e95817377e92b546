// `svc backup [dest] [-f]`: an online, consistent copy of svc.db made with
// SQLite's backup API through a read-only connection, so it is safe while
// the server is writing and works with no server at all.
//
// The copy holds everything svc stores, so it is created 0600 and never
// written through a symlink (the default name is predictable): SQLite writes
// it inside a fresh private folder beside the destination, then it is
// hard-linked into place, which fails if anything (a file, a symlink) has
// taken the name; with --force it is renamed over the name instead, which
// replaces a symlink rather than following it.
import { chmodSync, constants, copyFileSync, existsSync, linkSync, lstatSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fsyncDir, isAlreadyThere, isMissingFile } from '../fs-safe.ts';
import { openDatabase } from '../db/open.ts';
import { messageOf } from '../errors.ts';

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

/** Whether anything, a dangling symlink included, is at `p` (lstat: a symlink is not followed). */
function somethingAt(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch (err) {
    if (isMissingFile(err)) return false;
    throw err;
  }
}

const alreadyExists = (dest: string) => new BackupError(`${dest} already exists (use --force to overwrite it)`);

/** Puts the finished copy at `dest`: link (never replaces anything), or with `force` rename over it. */
function place(copy: string, dest: string, force: boolean): void {
  if (force) {
    renameSync(copy, dest);
    return;
  }
  try {
    linkSync(copy, dest);
    return;
  } catch (err) {
    if (isAlreadyThere(err)) throw alreadyExists(dest);
    const code = (err as NodeJS.ErrnoException).code;
    // A filesystem without hard links: an exclusive copy, which also refuses any existing name.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
  }
  try {
    copyFileSync(copy, dest, constants.COPYFILE_EXCL);
  } catch (err) {
    if (isAlreadyThere(err)) throw alreadyExists(dest);
    throw err;
  }
}

/** Copies the database; returns the destination path. Throws BackupError with a user-facing message. */
export async function runBackup(opts: BackupOptions): Promise<string> {
  const dest = resolveBackupDest(opts.dest, opts.cwd, opts.now ?? new Date());
  if (!existsSync(opts.source)) throw new BackupError(`no database to back up at ${opts.source}`);
  if (!opts.force && somethingAt(dest)) throw alreadyExists(dest);
  let db;
  try {
    db = openDatabase(opts.source, { readonly: true, migrate: false });
  } catch (err) {
    throw new BackupError(`cannot open ${opts.source}: ${messageOf(err)}`);
  }
  let work: string | null = null;
  try {
    // 0700, made by this call (mkdtemp never reuses a name): nobody else can plant anything inside.
    work = mkdtempSync(join(dirname(dest), '.svc-backup-'));
    const copy = join(work, 'svc.db');
    // All remaining pages in one step, inside one read transaction: the copy
    // is a single consistent snapshot, and a server writing between small
    // steps cannot force SQLite to restart the backup over and over.
    await db.backup(copy, { progress: () => ALL_PAGES });
    chmodSync(copy, 0o600);
    place(copy, dest, opts.force);
    fsyncDir(dirname(dest));
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`backup to ${dest} failed: ${messageOf(err)}`);
  } finally {
    db.close();
    // The private folder and what is left in it (the copy's other link, a journal, a half-written copy).
    if (work !== null) rmSync(work, { recursive: true, force: true });
  }
  return dest;
}
