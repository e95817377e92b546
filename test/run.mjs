// Runs the tests with node:test through tsx, tier by tier. Node 20's `--test`
// does not expand globs, so the files are listed here.
// Usage: node test/run.mjs [--tier <name>[,<name>…]] [path-fragment …]
// Each tier is its own command (`npm run test:<tier>`), so CI can run them
// as parallel jobs; with no --tier every tier runs, one after another. A
// test file belongs to the tier of its folder (TIERS); a file in no tier's
// folder is an error, not a file silently left out. The run ends with each
// tier's time and the slowest files, then the failed tests, if any.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './install-chromium.mjs';

/** In the order `npm test` runs them: the fast tiers first, so a plain mistake fails in a minute. */
export const TIERS = [
  { name: 'unit', dirs: ['test/unit/', 'test/http/'], what: 'modules in process, routes through inject()' },
  { name: 'e2e', dirs: ['test/e2e/'], what: 'svc on real sockets and child processes' },
  { name: 'gateway', dirs: ['test/gateway/'], what: 'the real OpenClaw gateway' },
  { name: 'browser', dirs: ['test/browser/'], what: 'the dashboard in headless Chromium' },
];
const SLOWEST = 10;

const root = fileURLToPath(new URL('..', import.meta.url));
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'bench' || name === 'node_modules') return [];
    return statSync(p).isDirectory() ? walk(p) : name.endsWith('.test.ts') ? [p] : [];
  });

function parseArgs(argv) {
  const tiers = [];
  const filters = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--tier') tiers.push(...(argv[++i] ?? '').split(','));
    else if (a.startsWith('--tier=')) tiers.push(...a.slice('--tier='.length).split(','));
    else filters.push(a);
  }
  const unknown = tiers.filter((t) => !TIERS.some((x) => x.name === t));
  if (unknown.length > 0) {
    console.error(`test: unknown tier ${unknown.join(', ')} (tiers: ${TIERS.map((t) => t.name).join(', ')})`);
    process.exit(2);
  }
  return { tiers, filters };
}

const { tiers: chosen, filters } = parseArgs(process.argv.slice(2));
const all = walk(join(root, 'test'))
  .map((p) => relative(root, p).split(sep).join('/'))
  .sort();
const tierOf = (file) => TIERS.find((t) => t.dirs.some((d) => file.startsWith(d)));
const homeless = all.filter((f) => !tierOf(f));
if (homeless.length > 0) {
  console.error(`test: these files are in no tier's folder (test/run.mjs TIERS):\n  ${homeless.join('\n  ')}`);
  process.exit(2);
}
const plan = TIERS.filter((t) => chosen.length === 0 || chosen.includes(t.name))
  .map((t) => ({ tier: t, files: all.filter((f) => tierOf(f) === t && (filters.length === 0 || filters.some((x) => f.includes(x)))) }))
  .filter((p) => p.files.length > 0);
if (plan.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// The browser tests need Debian's chromium: installed here, once, before any test file runs.
if (plan.some((p) => p.tier.name === 'browser')) {
  const problem = ensureChromium();
  if (problem) {
    console.error(`test: ${problem}`);
    process.exit(1);
  }
}

const reportDir = mkdtempSync(join(tmpdir(), 'svc-test-report-'));
const results = [];
for (const { tier, files } of plan) {
  console.log(`\n== tier ${tier.name} (${tier.what}): ${files.length} file(s)`);
  const failuresFile = join(reportDir, `${tier.name}-failures.txt`);
  const timingFile = join(reportDir, `${tier.name}-timing.jsonl`);
  const started = Date.now();
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
      `--test-reporter=${join(root, 'test', 'timing-reporter.mjs')}`,
      `--test-reporter-destination=${timingFile}`,
      ...files,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const read = (f) => readFileSync(f, { encoding: 'utf8', flag: 'a+' });
  const timings = read(timingFile)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  results.push({
    tier,
    files: files.length,
    seconds: (Date.now() - started) / 1000,
    status: r.status ?? 1,
    tests: timings.reduce((n, f) => n + f.tests, 0),
    failed: timings.reduce((n, f) => n + f.failed, 0),
    timings,
    failures: read(failuresFile),
  });
}
rmSync(reportDir, { recursive: true, force: true });

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const lines = ['', '== test tiers', `${pad('tier', 9)}${lpad('files', 6)}${lpad('tests', 7)}${lpad('failed', 8)}${lpad('time', 9)}`];
for (const r of results) {
  // A file that crashed before its tests reported is counted by the exit status only.
  const failed = r.status === 0 ? r.failed : Math.max(r.failed, 1);
  lines.push(`${pad(r.tier.name, 9)}${lpad(r.files, 6)}${lpad(r.tests, 7)}${lpad(failed, 8)}${lpad(`${r.seconds.toFixed(0)} s`, 9)}`);
}
lines.push(`${pad('total', 30)}${lpad(`${results.reduce((s, r) => s + r.seconds, 0).toFixed(0)} s`, 9)}`);
const slowest = results
  .flatMap((r) => r.timings.map((t) => ({ ...t, tier: r.tier.name })))
  .sort((a, b) => b.ms - a.ms)
  .slice(0, SLOWEST);
lines.push('', `== slowest files (their tests' time; two run at once)`);
for (const t of slowest) lines.push(`${lpad(`${(t.ms / 1000).toFixed(1)} s`, 9)}  ${pad(t.tier, 8)} ${relative(root, t.file)}`);
console.log(lines.join('\n'));
for (const r of results) if (r.failures) process.stdout.write(r.failures);
process.exit(results.every((r) => r.status === 0) ? 0 : 1);
