// ui/budget.mjs, the build's bundle check (issue 18): the entry over 150 KB
// gzip, a lazy chunk preloaded by index.html, an inline script or style, or
// no lazy page at all each fail the build; a build within budget passes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { checkBudget, ENTRY_BUDGET_KB } from '../../ui/budget.mjs';

interface Dist {
  entryBytes?: Buffer;
  preloadLazy?: boolean;
  inline?: string;
  lazyChunks?: boolean;
}

function fakeDist(t: TestContext, d: Dist = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-budget-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'assets', 'index-a.js'), d.entryBytes ?? Buffer.from('console.log("entry");'));
  writeFileSync(join(dir, 'assets', 'index-a.css'), 'body{margin:0}');
  writeFileSync(join(dir, 'assets', 'Page-b.js'), 'export default 1;');
  const manifest: Record<string, unknown> = { 'index.html': { file: 'assets/index-a.js', isEntry: true } };
  if (d.lazyChunks !== false) manifest['src/pages/Page.tsx'] = { file: 'assets/Page-b.js', isDynamicEntry: true };
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  const head = [
    '<script type="module" crossorigin src="/assets/index-a.js"></script>',
    '<link rel="stylesheet" crossorigin href="/assets/index-a.css">',
    d.preloadLazy ? '<link rel="modulepreload" crossorigin href="/assets/Page-b.js">' : '',
    d.inline ?? '',
  ].join('\n');
  writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head>${head}</head><body><div id="root"></div></body></html>`);
  return dir;
}

void test('Dashboard (issue 18, bundle budget): a build within budget passes and names its initial assets', (t) => {
  const r = checkBudget(fakeDist(t));
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.initial, ['assets/index-a.js', 'assets/index-a.css']);
  assert.deepEqual(r.lazy, ['Page-b.js']);
});

void test('Dashboard (issue 18, bundle budget): an entry over the budget, a preloaded lazy chunk, inline script or style, no lazy page: each fails', (t) => {
  // Random bytes do not compress: this entry is over the budget gzipped too.
  const big = checkBudget(fakeDist(t, { entryBytes: randomBytes((ENTRY_BUDGET_KB + 10) * 1024) }));
  assert.match(big.problems.join('\n'), /over the 150 KB budget/);
  assert.match(checkBudget(fakeDist(t, { preloadLazy: true })).problems.join('\n'), /preloads the lazy chunk assets\/Page-b\.js/);
  assert.match(checkBudget(fakeDist(t, { inline: '<script>alert(1)</script>' })).problems.join('\n'), /inline script/);
  assert.match(checkBudget(fakeDist(t, { inline: '<style>body{}</style>' })).problems.join('\n'), /inline style/);
  assert.match(checkBudget(fakeDist(t, { lazyChunks: false })).problems.join('\n'), /no lazy chunk/);
});
