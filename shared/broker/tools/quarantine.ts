// How delete_path removes a confined target without being raced outside the
// workspace. Between any check and the removal, a process with a shell could
// swap the target or one of its parents for a symlink; removing by path
// would then follow it. So the target is first moved (one rename within the
// workspace's filesystem) into svc's private quarantine folder under a random
// name, checked again there (lstat: the same device and inode as checked, not
// a symlink), and only then deleted. If what arrived is not what was checked,
// it is put back where it came from and nothing is deleted.
//
// What is left: the recursive removal inside the quarantine folder walks by
// path, so a process running as svc's own user could still race inside that
// 0700 folder; such a process can delete those files directly anyway.
import { chmodSync, lstatSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ToolRefusal } from '../refusal.ts';
import { confine, fileId, QUARANTINE_DIR, sameFile, type FileId } from './confine.ts';

/** The quarantine folder, created 0700; refused unless it is a plain folder (never a symlink). */
function quarantineDir(root: string): string {
  const dir = join(root, QUARANTINE_DIR);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new ToolRefusal(`refused: ${dir} is not a plain folder; nothing was deleted`);
  if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  return dir;
}

/** Moves `held` back to `from` unless something already sits there; false when it stays in quarantine. */
function putBack(held: string, from: string): boolean {
  try {
    lstatSync(from);
    return false; // something took its place: never move over it
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return false;
  }
  try {
    renameSync(held, from);
    return true;
  } catch {
    // Left in quarantine: the refusal names the folder, and nothing was deleted.
    return false;
  }
}

/**
 * Deletes `input` (a path inside the workspace) after re-checking it. With
 * `approved` (what the precheck saw when the human was asked), a target that
 * is no longer that file is refused. Returns the path that was removed;
 * throws a ToolRefusal otherwise (an I/O failure throws as itself).
 */
export function removeConfined(workspaceDir: string, input: string, approved?: FileId): string {
  const c = confine(workspaceDir, input);
  if (!c.ok) throw new ToolRefusal(c.reason);
  if (approved && !sameFile(approved, c.id)) throw new ToolRefusal(`refused: ${input} is no longer what was approved; nothing was deleted`);
  const held = join(quarantineDir(c.root), randomUUID());
  renameSync(c.target, held);
  const st = lstatSync(held, { bigint: true });
  if (st.isSymbolicLink() || !sameFile(c.id, fileId(st))) {
    const back = putBack(held, c.target);
    throw new ToolRefusal(
      `refused: ${input} was swapped while it was being removed; nothing was deleted${back ? '' : ` (what was moved is kept in ${held})`}`,
    );
  }
  rmSync(held, { recursive: true, force: false });
  return c.target;
}
