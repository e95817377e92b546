// What `svc` starts (spec "Command-line launcher", default action step 4):
// the bundled build with NODE_ENV/SVC_VERSION/SVC_MCP_BIN_DIR, else a
// development server (SVC_SERVER_PATH, else a repository root), else nothing.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepositoryRoot, resolveServerEntry } from '../../shared/launcher/index.ts';
import { SERVER_NODE_FLAGS } from '../../shared/launcher/node-flags.ts';
import { REPO_ROOT, SERVER_ENTRY } from '../helpers/server.ts';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-entry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function touch(path: string, text = ''): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

const base = { version: '9.8.7', mcpBinDir: '/opt/svc/mcp', serverPath: null, svcHome: '/home/u/.svc-test' };

void test('Command-line launcher: the bundled server wins and gets the production environment', (t) => {
  const root = tempDir(t);
  touch(join(root, 'dist', 'supervisor', 'main.js'));
  const r = resolveServerEntry({ ...base, packageRoot: root, serverPath: '/somewhere/else.ts' }, { SVC_API_PORT: '18799' });
  assert.ok(r.ok);
  assert.equal(r.entry.kind, 'bundled');
  assert.equal(r.entry.command, process.execPath);
  assert.deepEqual(r.entry.args, ['--max-semi-space-size=4', join(root, 'dist', 'supervisor', 'main.js')]);
  assert.equal(r.entry.env.NODE_ENV, 'production');
  assert.equal(r.entry.env.SVC_VERSION, '9.8.7');
  assert.equal(r.entry.env.SVC_MCP_BIN_DIR, '/opt/svc/mcp');
  assert.equal(r.entry.env.SVC_API_PORT, '18799');
  assert.equal(r.entry.env.SVC_HOME, '/home/u/.svc-test', 'the server shares the launcher\'s state directory');
});

void test('Command-line launcher: SVC_SERVER_PATH runs a .ts file through tsx and a .js file on plain node', (t) => {
  const dir = tempDir(t);
  touch(join(dir, 'package.json'), '{"name":"whatever"}');
  touch(join(dir, 'src', 'server.ts'));
  touch(join(dir, 'src', 'server.js'));
  const ts = resolveServerEntry({ ...base, packageRoot: join(dir, 'nowhere'), serverPath: join(dir, 'src', 'server.ts') });
  assert.ok(ts.ok);
  assert.equal(ts.entry.kind, 'development');
  assert.deepEqual(ts.entry.args, ['--import', 'tsx', join(dir, 'src', 'server.ts')]);
  assert.equal(ts.entry.cwd, dir, 'tsx resolves from the nearest package folder');
  const js = resolveServerEntry({ ...base, packageRoot: join(dir, 'nowhere'), serverPath: join(dir, 'src', 'server.js') });
  assert.ok(js.ok);
  assert.deepEqual(js.entry.args, [join(dir, 'src', 'server.js')]);

  // A repository that discovery would find is not used when SVC_SERVER_PATH names a missing file.
  const repo = join(dir, 'repo');
  touch(join(repo, 'package.json'), '{"name":"svc"}');
  touch(join(repo, 'supervisor', 'main.ts'));
  assert.equal(findRepositoryRoot(repo), repo);
  const missing = resolveServerEntry({ ...base, packageRoot: repo, serverPath: join(dir, 'gone.ts') });
  assert.equal(missing.ok, false, 'an explicit SVC_SERVER_PATH overrides repository discovery');
  assert.equal(resolveServerEntry({ ...base, packageRoot: repo }).ok, true);
});

void test('Command-line launcher: SVC_SERVER_PATH may name a repository folder', (t) => {
  const dir = tempDir(t);
  touch(join(dir, 'supervisor', 'main.ts'));
  const r = resolveServerEntry({ ...base, packageRoot: join(dir, 'x'), serverPath: dir });
  assert.ok(r.ok);
  assert.deepEqual(r.entry.args, ['--import', 'tsx', join(dir, 'supervisor', 'main.ts')]);
  assert.equal(r.entry.cwd, dir);
});

void test('Command-line launcher: repository root discovery walks up to the svc package with supervisor/main.ts', (t) => {
  const repo = REPO_ROOT.replace(/\/$/, '');
  assert.equal(findRepositoryRoot(join(repo, 'shared', 'launcher')), repo);
  // With a build present the bundled server would (rightly) win instead.
  if (!existsSync(join(repo, 'dist', 'supervisor', 'main.js'))) {
    const r = resolveServerEntry({ ...base, packageRoot: repo });
    assert.ok(r.ok);
    assert.equal(r.entry.kind, 'development');
    assert.deepEqual(r.entry.args, ['--import', 'tsx', SERVER_ENTRY]);
    assert.equal(r.entry.cwd, repo);
  }

  // A package named otherwise is not the repository.
  const dir = tempDir(t);
  touch(join(dir, 'package.json'), '{"name":"not-svc"}');
  touch(join(dir, 'supervisor', 'main.ts'));
  assert.equal(findRepositoryRoot(dir), null);
  const none = resolveServerEntry({ ...base, packageRoot: dir });
  assert.equal(none.ok, false);
  assert.ok(!none.ok && /no server build/.test(none.problem));
});

void test('Command-line launcher: `npm start` runs the server with the same node flags as the launcher', () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  for (const flag of SERVER_NODE_FLAGS) assert.ok(pkg.scripts.start.includes(flag), `start script lacks ${flag}`);
  assert.match(pkg.scripts.start, /dist\/supervisor\/main\.js/);
});
