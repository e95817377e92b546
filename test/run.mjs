// Runs every *.test.ts under test/ with node:test through tsx. Node 20's
// `--test` does not expand globs, so the files are listed here.
// Usage: node test/run.mjs [path-filter ...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './install-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'bench' || name === 'node_modules') return [];
    return statSync(p).isDirectory() ? walk(p) : name.endsWith('.test.ts') ? [p] : [];
  });
const filters = process.argv.slice(2);
const files = walk(join(root, 'test'))
  .map((p) => relative(root, p))
  .filter((p) => filters.length === 0 || filters.some((f) => p.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// The browser tests need Debian's chromium: installed here, once, before any test file runs.
if (files.some((f) => f.endsWith('.browser.test.ts'))) {
  const problem = ensureChromium();
  if (problem) {
    console.error(`test: ${problem}`);
    process.exit(1);
  }
}
// The usual reporter to stdout; the failed tests, if any, to a file printed last.
const reportDir = mkdtempSync(join(tmpdir(), 'svc-test-report-'));
const failuresFile = join(reportDir, 'failures.txt');
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-timeout=600000',
    `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'test', 'failures-reporter.mjs')}`,
    `--test-reporter-destination=${failuresFile}`,
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
);
const failures = readFileSync(failuresFile, { encoding: 'utf8', flag: 'a+' });
if (failures) process.stdout.write(failures);
rmSync(reportDir, { recursive: true, force: true });
process.exit(r.status ?? 1);
