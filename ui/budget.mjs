// The bundle budget (issue 18): the entry chunk, with the CSS and the chunks
// it imports statically, at most ENTRY_BUDGET_KB gzip; and index.html must
// not preload a lazy page's chunk (that would put it back on the first load).
// Reads what Vite wrote into ui/dist: index.html, the chunks and the build
// manifest (which chunks are dynamic entries, i.e. lazy pages).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const ENTRY_BUDGET_KB = 150;

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kb = (n) => Math.round((n / 1024) * 10) / 10;

/** What index.html loads up front: its module script, modulepreloads and stylesheets. */
export function initialAssets(html) {
  const out = new Set();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/(assets\/[^"]+)"[^>]*>/g)) out.add(m[1]);
  return [...out];
}

export function checkBudget(dist) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const problems = [];
  if (/<script(?![^>]*\bsrc=)[^>]*>/.test(html)) problems.push('index.html has an inline script (the page CSP forbids it)');
  if (/<style\b/.test(html) || /\sstyle="/.test(html)) problems.push('index.html has an inline style (the page CSP forbids it)');
  const initial = initialAssets(html);
  const all = readdirSync(join(dist, 'assets'));
  let entryBytes = 0;
  for (const a of initial) entryBytes += gz(readFileSync(join(dist, a)));
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const dynamic = Object.values(manifest).filter((c) => c.isDynamicEntry).map((c) => c.file);
  if (dynamic.length === 0) problems.push('no lazy chunk: every page should be a dynamic import');
  // A lazy chunk named in index.html would be fetched on every first load.
  for (const f of dynamic) if (initial.includes(f)) problems.push(`index.html preloads the lazy chunk ${f}`);
  const lazy = all.filter((f) => f.endsWith('.js') && !initial.includes(`assets/${f}`));
  const largestLazy = Math.max(0, ...lazy.map((f) => gz(readFileSync(join(dist, 'assets', f)))));
  if (kb(entryBytes) > ENTRY_BUDGET_KB) problems.push(`entry is ${kb(entryBytes)} KB gzip, over the ${ENTRY_BUDGET_KB} KB budget`);
  return { entryKb: kb(entryBytes), largestLazyKb: kb(largestLazy), initial, lazy, problems };
}
