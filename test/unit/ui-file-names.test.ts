// The dashboard's one file-name convention (docs/dashboard.md "Where things
// live"): a component module is PascalCase.tsx, every other file kebab-case
// (`use-board.ts`, never `useBoard.ts`), and so is every folder. Two .tsx
// files are not component modules and keep kebab-case: the entry index.html
// loads (main.tsx) and the route table (app/routes.tsx, which the routes
// browser test reads by path).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../helpers/server.ts';

const SRC = join(REPO_ROOT, 'ui', 'src');
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*$/;
/** .tsx files that are not component modules (paths under ui/src). */
const KEBAB_TSX = new Set(['main.tsx', 'app/routes.tsx']);

/** Every file and folder under `dir`, as paths relative to ui/src. */
function walk(dir: string): { files: string[]; dirs: string[] } {
  const out = { files: [] as string[], dirs: [] as string[] };
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const sub = walk(p);
      out.dirs.push(relative(SRC, p), ...sub.dirs);
      out.files.push(...sub.files);
    } else out.files.push(relative(SRC, p));
  }
  return out;
}

/** Why a file name breaks the convention, or null. */
function nameProblem(path: string): string | null {
  const name = path.split('/').at(-1) ?? path;
  const dot = name.indexOf('.');
  const stem = dot < 0 ? name : name.slice(0, dot);
  const ext = dot < 0 ? '' : name.slice(dot);
  if (ext === '.tsx') {
    if (KEBAB_TSX.has(path)) return KEBAB.test(stem) ? null : `${path}: kebab-case (not a component module)`;
    return PASCAL.test(stem) ? null : `${path}: a component module is PascalCase.tsx`;
  }
  return KEBAB.test(stem) ? null : `${path}: kebab-case${ext}`;
}

void test('Dashboard (issue 32): the file-name rule itself', () => {
  assert.equal(nameProblem('features/board/use-board-stream.ts'), null);
  assert.equal(nameProblem('features/board/TaskCard.tsx'), null);
  assert.equal(nameProblem('styles/app.css'), null);
  assert.equal(nameProblem('main.tsx'), null);
  assert.match(nameProblem('features/board/useBoard.ts') ?? '', /kebab-case\.ts/);
  assert.match(nameProblem('features/board/use_board.ts') ?? '', /kebab-case\.ts/);
  assert.match(nameProblem('components/states.tsx') ?? '', /PascalCase\.tsx/);
  assert.match(nameProblem('features/board/Board-Columns.tsx') ?? '', /PascalCase\.tsx/);
});

void test('Dashboard (issue 32): every file under ui/src is PascalCase.tsx (a component module) or kebab-case, and every folder kebab-case', () => {
  const { files, dirs } = walk(SRC);
  assert.ok(files.length > 50, `ui/src has the dashboard's files (${files.length})`);
  for (const f of KEBAB_TSX) assert.ok(files.includes(f), `${f} is still there (else drop it from KEBAB_TSX)`);
  assert.deepEqual(files.map(nameProblem).filter((p) => p !== null), []);
  assert.deepEqual(dirs.filter((d) => !KEBAB.test(d.split('/').at(-1) ?? d)), [], 'folders are kebab-case');
});
