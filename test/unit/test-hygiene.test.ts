// Issue 16 #5, tests that cannot flake: every property test runs on a seed
// FC_SEED can set and a failure prints (test/helpers/fc.ts), and no test
// asserts a wall-clock duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../helpers/server.ts';
import { runChild, tsArgs } from '../helpers/spawn.ts';

const SELF = 'Testing (issue 16 #5)';

/** Every .ts file under test/ but the benchmarks (not tests) and this file's helper itself. */
function sources(dir = join(REPO_ROOT, 'test')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'bench' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORTS_FAST_CHECK = /from ['"]fast-check['"]/;
const IMPORTS_FC_HELPER = /from ['"](?:\.\.?\/)+(?:helpers\/)?fc\.ts['"]/;
// The shape of a timed assertion: a clock reading minus a start, compared with a bound.
const TIMED = /(?:Date|performance)\.now\(\)\s*-\s*[\w.]+\s*[<>]/;

void test(`${SELF}: property tests take fast-check only through test/helpers/fc.ts`, () => {
  const files = sources().map((path) => ({ file: relative(REPO_ROOT, path), text: readFileSync(path, 'utf8') }));
  const direct = files.filter((f) => f.file !== join('test', 'helpers', 'fc.ts') && IMPORTS_FAST_CHECK.test(f.text)).map((f) => f.file);
  assert.deepEqual(direct, [], 'import { fc } from test/helpers/fc.ts instead, so the run takes FC_SEED and prints its seed');
  const viaHelper = files.filter((f) => IMPORTS_FC_HELPER.test(f.text) && /\bfc\.assert\(/.test(f.text));
  assert.ok(viaHelper.length >= 20, `found ${viaHelper.length} property test files through the helper: the scan missed them`);
});

void test(`${SELF}: a failing property prints its seed and the FC_SEED line that replays it; FC_SEED replays the same run`, async () => {
  const fixture = join(REPO_ROOT, 'test', 'fixtures', 'failing-property.ts');
  const env = { ...process.env };
  delete env.FC_SEED;
  const first = await runChild(process.execPath, tsArgs(fixture), { cwd: REPO_ROOT, env });
  assert.equal(first.code, 1, first.output);
  const seen = /\{ seed: (-?\d+), path: "([^"]*)"/.exec(first.stderr);
  assert.ok(seen, `the failure names its seed: ${first.stderr}`);
  const [, seed, path] = seen;
  assert.ok(first.stderr.includes(`Replay with: FC_SEED=${seed} node test/run.mjs`), first.stderr);

  const replay = await runChild(process.execPath, tsArgs(fixture), { cwd: REPO_ROOT, env: { ...env, FC_SEED: seed } });
  assert.equal(replay.code, 1, replay.output);
  assert.ok(replay.stderr.includes(`{ seed: ${seed}, path: "${path}"`), `FC_SEED=${seed} fails the same way: ${replay.stderr}`);

  const bad = await runChild(process.execPath, tsArgs(fixture), { cwd: REPO_ROOT, env: { ...env, FC_SEED: 'soon' } });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /FC_SEED must be an integer, got "soon"/);
});

void test(`${SELF}: no test asserts a wall-clock duration`, () => {
  assert.match('assert.ok(Date.now() - started < 1500);', TIMED, 'the pattern finds the shape it is for');
  assert.doesNotMatch('utcDay(Date.now() - 29 * DAY_MS)', TIMED, 'a date computed from the clock is not a duration');
  const timed = sources()
    .filter((path) => path.endsWith('.test.ts'))
    .flatMap((path) => readFileSync(path, 'utf8').split('\n').map((line, i) => ({ where: `${relative(REPO_ROOT, path)}:${i + 1}`, line })))
    .filter(({ line }) => TIMED.test(line) && !line.includes('TIMED'));
  assert.deepEqual(timed.map((x) => `${x.where}: ${x.line.trim()}`), [], 'wait for an event or inject a clock (test/helpers/wait.ts) instead of timing');
});
