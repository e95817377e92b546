// File writes for files that hold secrets (settings.json, the vault, the
// gateway's openclaw.json and .env, backups): the content appears complete or
// not at all, with mode 0600 whatever the umask, and a new file is created
// with O_EXCL, so a symlink planted at its name is never followed.
import { chmodSync, closeSync, constants, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/** True when an fs call failed only because the path does not exist. */
export function isMissingFile(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** True when an fs call failed because something (a file, a symlink) is already at the path. */
export function isAlreadyThere(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EEXIST';
}

/**
 * create-new, write-only, and never through a symlink: O_EXCL already fails
 * on any existing name, a dangling symlink included; O_NOFOLLOW (absent on
 * Windows) says so a second time.
 */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Creates `file` (which must not exist in any form) with mode 0600 and writes
 * `data`, fsynced. Throws EEXIST when the name is taken, by a file or a
 * symlink; a half-written file is removed.
 */
export function writeNewFile(file: string, data: string | Uint8Array): void {
  const fd = openSync(file, CREATE_NEW, 0o600);
  try {
    fchmodSync(fd, 0o600); // exact whatever the umask
    writeFileSync(fd, data); // loops until every byte is written
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw err;
  }
  closeSync(fd);
}

/** Writes `text` to a new 0600 temp file beside `file`, fsynced. Returns the temp path. */
export function writeTempFile(file: string, text: string): string {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(tmp, 0o600); // exact whatever the umask
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return tmp;
}

/**
 * fsyncs a directory, so that a rename or link inside it survives a crash or
 * power cut (the rename is in the directory, not in the file). Windows has no
 * directory handles to fsync (NTFS journals the rename), so it is skipped there.
 */
export function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } catch (err) {
    // A filesystem that cannot fsync a directory (EINVAL on some network and
    // FUSE mounts) offers no stronger guarantee to wait for: the rename is
    // done and visible; anything else (EIO) is a real failure and is thrown.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EBADF') throw err;
  } finally {
    closeSync(fd);
  }
}

/** Replaces `file` atomically (temp file, rename, directory fsync) with a 0600 file holding `text`; creates its folder 0700. */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = writeTempFile(file, text);
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dirname(file));
}

/**
 * Narrows an existing path to `mode` when it allows more (group or others
 * bits). A path another user owns is left alone: its owner chose its mode,
 * and chmod would fail. Nothing at the path: nothing to do.
 */
export function narrowMode(path: string, mode: 0o700 | 0o600): void {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    if (isMissingFile(err)) return;
    throw err;
  }
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return;
  if ((st.mode & 0o777 & ~mode) !== 0) chmodSync(path, mode);
}

/** svc's state folder (or one inside it): created 0700, and an older one narrowed to 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  narrowMode(dir, 0o700);
}

/**
 * A SQLite database file readable by its owner only, before SQLite opens it:
 * a new one is created empty with 0600 (SQLite gives its -wal and -shm files
 * the database file's mode), an older one and its -wal and -shm are narrowed.
 */
export function ensurePrivateDbFile(file: string): void {
  try {
    closeSync(openSync(file, CREATE_NEW, 0o600));
  } catch (err) {
    if (!isAlreadyThere(err)) throw err;
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`]) narrowMode(path, 0o600);
}
