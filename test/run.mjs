// Runs the tests with node:test through tsx. Node 20's `--test` does not
// expand globs, so the files are listed here.
// Usage: node test/run.mjs [--tier <name>[,<name>…]] [path-fragment …]
// A test file belongs to the tier of its folder (TIERS); a file in no tier's
// folder is an error, not a file silently left out. Each tier is its own
// command (`npm run test:<tier>`), so CI can run them as parallel jobs; with
// no --tier every tier runs, in one node:test run (two files at a time, the
// longest first by the last run's times, so the two slots stay busy to the
// end instead of idling at each tier's last file). The run ends with each
// tier's files, tests, failures and test time, the wall time, the slowest
// files, then the failed tests, if any.
// The unit tier's files share a few processes (SHARED_TIERS): each of its
// files only registers top-level tests, and loading the module graph through
// tsx once per process instead of once per file is most of that tier's CPU.
// node:test still reports each test under its own file. SVC_TEST_ISOLATE=1
// gives every file its own process again (to find a file that leaks state).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureChromium } from './install-chromium.mjs';

/** `guessMs`: a file's time before any run has measured it (orders a first run). */
export const TIERS = [
  { name: 'unit', dirs: ['test/unit/', 'test/http/'], what: 'modules in process, routes through inject()', guessMs: 1_000 },
  { name: 'e2e', dirs: ['test/e2e/'], what: 'svc on real sockets and child processes', guessMs: 10_000 },
  { name: 'gateway', dirs: ['test/gateway/'], what: 'the real OpenClaw gateway', guessMs: 60_000 },
  { name: 'browser', dirs: ['test/browser/'], what: 'the dashboard in headless Chromium', guessMs: 30_000 },
];
const SLOWEST = 10;
/** Tiers whose files run several to a process, and how many processes each such tier gets. */
const SHARED_TIERS = new Set(['unit']);
const SHARED_PROCESSES = 4;
const ISOLATE = process.env.SVC_TEST_ISOLATE === '1';
/** Files at once: two, one per core of the machines CI runs on; SVC_TEST_CONCURRENCY tries another count. */
const CONCURRENCY = Number.parseInt(process.env.SVC_TEST_CONCURRENCY ?? '', 10) || 2;
/** The last run's time per file, beside the real gateway's install (outside the repository). */
const TIMINGS_FILE = join(process.env.SVC_TEST_CACHE ?? join(homedir(), '.cache', 'svc-test'), 'test-timings.json');

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
const tiers = TIERS.filter((t) => chosen.length === 0 || chosen.includes(t.name));
const files = all.filter((f) => tiers.includes(tierOf(f)) && (filters.length === 0 || filters.some((x) => f.includes(x))));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// The browser tests need Debian's chromium: installed here, once, before any test file runs.
if (files.some((f) => tierOf(f).name === 'browser')) {
  const problem = ensureChromium();
  if (problem) {
    console.error(`test: ${problem}`);
    process.exit(1);
  }
}

/**
 * Whether `npm run build` ran after the last change to any source: then the
 * tests start svc from the build (test/helpers/server.ts serverArgs).
 */
function buildIsFresh() {
  const built = [join(root, 'dist', 'supervisor', 'main.js'), join(root, 'ui', 'dist', 'index.html')];
  let builtAt;
  try {
    builtAt = Math.min(...built.map((f) => statSync(f).mtimeMs));
  } catch (err) {
    if (err.code === 'ENOENT') return false; // never built
    throw err;
  }
  const newest = (dir) =>
    readdirSync(dir).reduce((max, name) => {
      if (name === 'node_modules' || name === 'dist') return max;
      const st = statSync(join(dir, name));
      return Math.max(max, st.isDirectory() ? newest(join(dir, name)) : st.mtimeMs);
    }, 0);
  const sources = ['supervisor', 'shared', 'workers', 'bin', join('ui', 'src')].map((d) => newest(join(root, d)));
  return Math.max(...sources, statSync(join(root, 'package.json')).mtimeMs) < builtAt;
}
const built = buildIsFresh();
if (!built && files.some((f) => tierOf(f).name !== 'unit')) console.log('== dist/ is missing or older than the sources: svc runs from the sources (slower; `npm run build` first to use the build)');

function readTimings() {
  try {
    return JSON.parse(readFileSync(TIMINGS_FILE, 'utf8'));
  } catch (err) {
    // No earlier run on this machine (or an unreadable file): the tiers' guesses order this one.
    if (err.code !== 'ENOENT') console.error(`test: ${TIMINGS_FILE} not used (${err.message})`);
    return {};
  }
}
const known = readTimings();
const expectedMs = (f) => (typeof known[f] === 'number' ? known[f] : tierOf(f).guessMs);
const reportDir = mkdtempSync(join(tmpdir(), 'svc-test-report-'));

/**
 * The files of a shared tier dealt into SHARED_PROCESSES entry files, longest
 * first onto the lightest, each importing its files in turn; every other file
 * runs as itself. Returns what node:test runs, with each entry's expected time.
 */
function entries() {
  const shared = ISOLATE ? [] : files.filter((f) => SHARED_TIERS.has(tierOf(f).name));
  const own = files.filter((f) => !shared.includes(f)).map((f) => ({ path: f, ms: expectedMs(f), files: [f] }));
  const groups = Array.from({ length: Math.min(SHARED_PROCESSES, shared.length) }, () => ({ ms: 0, files: [] }));
  for (const f of [...shared].sort((a, b) => expectedMs(b) - expectedMs(a) || a.localeCompare(b))) {
    const g = groups.reduce((min, x) => (x.ms < min.ms ? x : min));
    g.files.push(f);
    g.ms += expectedMs(f);
  }
  const bundles = groups.map((g, i) => {
    const path = join(reportDir, `shared-${i + 1}-of-${groups.length}.test.mjs`);
    const body = g.files.map((f) => `await import(${JSON.stringify(pathToFileURL(join(root, f)).href)});`).join('\n');
    writeFileSync(path, `// ${g.files.length} test files in one process (test/run.mjs SHARED_TIERS)\n${body}\n`);
    return { path, ms: g.ms, files: g.files };
  });
  return [...own, ...bundles].sort((a, b) => b.ms - a.ms || a.path.localeCompare(b.path));
}
const ordered = entries();
const bundled = ordered.filter((e) => e.path.startsWith(reportDir));

const failuresFile = join(reportDir, 'failures.txt');
const timingFile = join(reportDir, 'timing.jsonl');
console.log(`== ${files.length} file(s): ${tiers.map((t) => `${t.name} ${files.filter((f) => tierOf(f) === t).length}`).join(', ')}`);
if (bundled.length > 0) {
  console.log(`== ${bundled.reduce((n, b) => n + b.files.length, 0)} file(s) of ${[...SHARED_TIERS].join(', ')} in ${bundled.length} shared processes (SVC_TEST_ISOLATE=1: one each)`);
}
const started = Date.now();
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${CONCURRENCY}`,
    '--test-timeout=600000',
    `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'test', 'failures-reporter.mjs')}`,
    `--test-reporter-destination=${failuresFile}`,
    `--test-reporter=${join(root, 'test', 'timing-reporter.mjs')}`,
    `--test-reporter-destination=${timingFile}`,
    ...ordered.map((e) => e.path),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, SVC_TEST_BUILT: built ? '1' : '0' } },
);
const wallS = (Date.now() - started) / 1000;
const read = (f) => readFileSync(f, { encoding: 'utf8', flag: 'a+' });
const timings = read(timingFile)
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .map((t) => ({ ...t, file: relative(root, t.file).split(sep).join('/') }));
const failures = read(failuresFile);
rmSync(reportDir, { recursive: true, force: true });
try {
  mkdirSync(dirname(TIMINGS_FILE), { recursive: true });
  writeFileSync(TIMINGS_FILE, `${JSON.stringify({ ...known, ...Object.fromEntries(timings.filter((t) => all.includes(t.file)).map((t) => [t.file, Math.round(t.ms)])) }, null, 1)}\n`);
} catch (err) {
  // Only the next run's order depends on it.
  console.error(`test: could not keep the timings in ${TIMINGS_FILE} (${err.message})`);
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const lines = ['', `== test tiers (test time: the sum of each file's tests, its before/after hooks not counted; ${CONCURRENCY} files at once)`];
lines.push(`${pad('tier', 9)}${lpad('files', 6)}${lpad('tests', 7)}${lpad('failed', 8)}${lpad('test time', 11)}`);
for (const t of tiers) {
  const mine = timings.filter((x) => tierOf(x.file) === t);
  const count = files.filter((f) => tierOf(f) === t).length;
  if (count === 0) continue;
  const sum = (k) => mine.reduce((n, x) => n + x[k], 0);
  lines.push(`${pad(t.name, 9)}${lpad(count, 6)}${lpad(sum('tests'), 7)}${lpad(sum('failed'), 8)}${lpad(`${(sum('ms') / 1000).toFixed(0)} s`, 11)}`);
}
lines.push(`wall time ${wallS.toFixed(0)} s${r.status === 0 ? '' : ` (exit ${r.status ?? r.signal})`}`);
const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
lines.push('', '== slowest files');
for (const t of slowest) lines.push(`${lpad(`${(t.ms / 1000).toFixed(1)} s`, 9)}  ${pad(tierOf(t.file)?.name ?? '', 8)} ${t.file}`);
console.log(lines.join('\n'));
if (failures) process.stdout.write(failures);
// A shared process that failed as a whole (a crash, a file that never ends) is named by its entry: say what it ran.
for (const b of bundled.filter((x) => failures.includes(basename(x.path)))) {
  console.log(`\n-- ${basename(b.path)} ran, in this order:\n   ${b.files.join('\n   ')}\n   (SVC_TEST_ISOLATE=1 runs each in its own process)`);
}
process.exit(r.status ?? 1);
