// The lock file beside settings.json, openclaw.json and .env (issue 15 #18):
// a dead holder's lock is taken over, a live holder is waited for a bounded
// time and then named in a clear error, and nothing is left behind.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLockTimeout, withFileLock } from '../../shared/file-lock.ts';
import { saveSettings } from '../../shared/settings/index.ts';
import { startChild } from '../helpers/spawn.ts';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = startChild(process.execPath, ['-e', '0']);
  await child.exited;
  return child.pid;
}

void test('Security (issue 15 #18): a lock whose holder is dead is taken over', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'settings.json');
  writeFileSync(`${file}.lock`, JSON.stringify({ pid: await deadPid(), host: hostname() }));
  saveSettings(file, { gatewayUrl: 'ws://localhost:1' });
  assert.deepEqual(readdirSync(dir), ['settings.json'], 'the stale lock is gone and no new one is left');
});

void test('Security (issue 15 #18): a lock file left empty by a writer that died at once is taken over after its grace time', (t) => {
  const dir = tempDir(t);
  const file = join(dir, '.env');
  writeFileSync(`${file}.lock`, '');
  const old = new Date(Date.now() - 60_000);
  utimesSync(`${file}.lock`, old, old);
  assert.equal(withFileLock(file, () => 'ran'), 'ran');
  assert.deepEqual(readdirSync(dir), []);
});

void test('Security (issue 15 #18): a live holder is waited for, then named in a clear error; the lock is left to it', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'openclaw.json');
  const holder = startChild(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { cleanup: t });
  await new Promise((resolve) => holder.proc.once('spawn', resolve));
  writeFileSync(`${file}.lock`, JSON.stringify({ pid: holder.pid, host: hostname() }));
  let ran = false;
  assert.throws(
    () => withFileLock(file, () => (ran = true), { timeoutMs: 200 }),
    (err: Error) => {
      assert.ok(err instanceof FileLockTimeout);
      assert.match(err.message, new RegExp(`being changed by another writer \\(pid ${holder.pid} `));
      assert.ok(err.message.includes(`${file}.lock`), 'the message names the lock file');
      return true;
    },
  );
  assert.equal(ran, false);
  assert.deepEqual(readdirSync(dir), ['openclaw.json.lock']);
});

void test('Security (issue 15 #18): a nested edit of the same file in one thread runs inside the outer lock', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'settings.json');
  const out = withFileLock(file, () => withFileLock(file, () => 'inner', { timeoutMs: 50 }));
  assert.equal(out, 'inner');
  assert.deepEqual(readdirSync(dir), []);
});
