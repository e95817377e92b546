// File writes for files that hold secrets (settings.json, the vault): the
// content appears complete or not at all, with mode 0600 whatever the umask.
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/** True when an fs call failed only because the path does not exist. */
export function isMissingFile(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
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

/** Replaces `file` atomically (temp file, then rename) with a 0600 file holding `text`; creates its folder 0700. */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = writeTempFile(file, text);
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
