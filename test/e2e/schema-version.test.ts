// Issue 15 #18: an older build refuses a database written by a newer one. The
// server and an MCP stdio binary (run from source) both exit 1 and say why,
// and the file is left as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LATEST_VERSION } from '../../shared/db/migrations.ts';
import { REPO_ROOT, removeHome, startServer, tempHome, testEnv } from '../helpers/server.ts';
import { runChild, tsArgs } from '../helpers/spawn.ts';

function newerDatabase(home: string): { path: string; message: string } {
  const path = join(home, 'svc.db');
  const db = new Database(path);
  db.pragma(`user_version = ${LATEST_VERSION + 1}`);
  db.close();
  return { path, message: `${path} has schema version ${LATEST_VERSION + 1}, newer than this build knows (${LATEST_VERSION}): update svc, or restore a backup` };
}

void test('What the service does (Persistence, issue 15 #18): svc refuses to start on a newer schema: exit 1, the reason printed, the file untouched', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const { path, message } = newerDatabase(home);
  const before = readFileSync(path);
  const s = await startServer({ home, waitFor: 'exit' });
  assert.equal(s.proc.exitCode, 1);
  assert.ok(s.output().includes(`svc: failed to start: ${message}`), s.output());
  assert.deepEqual(readFileSync(path), before);
});

void test('Command-line launcher → MCP stdio binaries (issue 15 #18): a stdio binary on a newer schema prints why to stderr and exits 1', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const { message } = newerDatabase(home);
  const { code, stderr, stdout } = await runChild(process.execPath, tsArgs(join(REPO_ROOT, 'bin', 'mcp', 'tasks.ts')), { cwd: REPO_ROOT, env: testEnv(home), stdin: 'pipe' });
  assert.equal(code, 1, stderr);
  assert.ok(stderr.includes(`svc-mcp-tasks: ${message}\n`), stderr);
  assert.equal(stdout, '', 'stdout carries the protocol only');
});
