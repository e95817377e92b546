// The dashboard's bundle may run a shared/ file only when that file imports
// nothing at run time itself (docs/architecture.md "Threads"): then no zod,
// no node: module and no server code can follow it into the browser. Type
// imports from shared/ are free (they vanish in the build).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../helpers/server.ts';

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(name) ? [p] : [];
  });

/** Run-time import/export-from specifiers of a source (`import type` and `export type` left out). */
function runtimeSpecifiers(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'([^']+)'/gms)) out.push(m[1] as string);
  for (const m of source.matchAll(/^import\s+'([^']+)'/gm)) out.push(m[1] as string);
  return out;
}

void test('Dashboard (issue 18, bundle): every shared/ file the UI runs has no run-time import of its own', () => {
  const shared = join(REPO_ROOT, 'shared');
  const used = new Map<string, string>();
  for (const file of walk(join(REPO_ROOT, 'ui', 'src'))) {
    for (const spec of runtimeSpecifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      if (target.startsWith(shared)) used.set(target, relative(REPO_ROOT, file));
    }
  }
  assert.ok(used.size >= 3, `the UI runs the shared rules (mention, session keys, transitions): ${[...used.keys()].join(', ')}`);
  for (const [target, from] of used) {
    const imports = runtimeSpecifiers(readFileSync(target, 'utf8'));
    assert.deepEqual(imports, [], `${relative(REPO_ROOT, target)} (run by ${from}) imports ${imports.join(', ')} at run time`);
  }
});
