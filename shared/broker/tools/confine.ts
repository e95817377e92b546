// Confinement for delete_path: a target must resolve (symlinks followed) to a
// path strictly inside svc's workspace folder. Relative paths are taken from
// the workspace; `..`, absolute paths elsewhere and symlinks that lead out are
// refused, and so is the workspace itself.
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export type Confined = { ok: true; target: string } | { ok: false; reason: string };

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

/**
 * Resolves `input` against the workspace. The path that will be removed is
 * the lexical one (so a symlink inside the workspace is removed as a link);
 * both it and its real path must lie strictly inside the workspace.
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
  try {
    lstatSync(lexical);
  } catch (err) {
    return { ok: false, reason: `refused: ${input} does not exist (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch (err) {
    // A dangling symlink: its target cannot be checked, so it is not removed.
    return { ok: false, reason: `refused: ${input} cannot be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (!isStrictlyInside(root, real)) return { ok: false, reason: `refused: ${input} resolves outside the workspace (${root})` };
  return { ok: true, target: lexical };
}
