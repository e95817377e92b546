// Confinement for delete_path: a target must lie strictly inside svc's
// workspace folder with no symlink among its path components. Relative paths
// are taken from the workspace; `..`, absolute paths elsewhere, the workspace
// itself and svc's quarantine folder are refused. The check is an lstat walk
// from the workspace root down to the target, every component, so nothing is
// ever followed; it reports the target's identity (device and inode) for the
// removal to compare with what it moves (see quarantine.ts).
import { lstatSync, mkdirSync, realpathSync, type BigIntStats } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** svc's own folder inside the workspace where a target is moved before it is deleted. */
export const QUARANTINE_DIR = '.svc-quarantine';

/** A file's identity: what was checked is what is removed. */
export interface FileId {
  dev: string;
  ino: string;
}

export type Confined = { ok: true; root: string; target: string; id: FileId } | { ok: false; reason: string };

export const fileId = (st: BigIntStats): FileId => ({ dev: String(st.dev), ino: String(st.ino) });
export const sameFile = (a: FileId, b: FileId): boolean => a.dev === b.dev && a.ino === b.ino;

/** True when `p` is strictly below `root` (both already absolute and resolved). */
export function isStrictlyInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The workspace folder, created 0700 on first use, as its real path. */
export function workspaceRoot(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return realpathSync(dir);
}

const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'error';

/**
 * Resolves `input` against the workspace (lexically: `..` is taken off the
 * text, never through a link) and walks it from the root with lstat. Any
 * symlink on the way, the target included, refuses the path.
 */
export function confine(workspaceDir: string, input: string): Confined {
  if (input.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' };
  if (input.trim() === '') return { ok: false, reason: 'path is empty' };
  const root = workspaceRoot(workspaceDir);
  // A caller may name the workspace by the path it was configured with; map that prefix onto the real one.
  const configured = resolve(workspaceDir);
  let lexical = resolve(root, input);
  if (isAbsolute(input) && (lexical === configured || lexical.startsWith(configured + sep))) lexical = root + lexical.slice(configured.length);
  if (!isStrictlyInside(root, lexical)) return { ok: false, reason: `refused: ${input} is outside the workspace (${root}) or is the workspace itself` };
  const parts = relative(root, lexical).split(sep);
  if (parts[0] === QUARANTINE_DIR) return { ok: false, reason: `refused: ${input} is inside svc's quarantine folder` };

  let cur = root;
  let st: BigIntStats | null = null;
  for (const part of parts) {
    cur = join(cur, part);
    try {
      st = lstatSync(cur, { bigint: true });
    } catch (err) {
      return { ok: false, reason: `refused: ${input} does not exist (${code(err)})` };
    }
    if (st.isSymbolicLink()) {
      return { ok: false, reason: `refused: ${input} has a symlink among its components (${relative(root, cur)}); symlinks are never followed or removed` };
    }
  }
  if (!st) return { ok: false, reason: `refused: ${input} names no file` };
  return { ok: true, root, target: lexical, id: fileId(st) };
}
