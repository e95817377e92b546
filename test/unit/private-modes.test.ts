// Issue 33 #6 (the fourth finding): svc.db was created 0644 and an existing
// state folder was never narrowed. The database file, its -wal and -shm are
// 0600 whatever the umask, an older looser one is narrowed, and the state
// folder is 0700 (shared/fs-safe.ts, shared/db/open.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../shared/db/open.ts';
import { ensurePrivateDir } from '../../shared/fs-safe.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-modes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

void test('Security (issue 33 #6): a new database, its -wal and its -shm are 0600 even under umask 000', (t) => {
  const file = join(tempDir(t), 'svc.db');
  const before = process.umask(0);
  let db;
  try {
    db = openDatabase(file);
    db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('k', 'v', 1);
  } finally {
    process.umask(before);
  }
  try {
    assert.deepEqual([file, `${file}-wal`, `${file}-shm`].map(modeOf), [0o600, 0o600, 0o600]);
  } finally {
    db.close();
  }
});

void test('Security (issue 33 #6): an older database left 0644 with its -wal and -shm is narrowed to 0600 when opened', (t) => {
  const file = join(tempDir(t), 'svc.db');
  const old = new Database(file);
  old.pragma('journal_mode = WAL');
  old.exec('CREATE TABLE x (a)');
  for (const p of [file, `${file}-wal`, `${file}-shm`]) chmodSync(p, 0o644);
  const db = openDatabase(file);
  try {
    assert.deepEqual([file, `${file}-wal`, `${file}-shm`].map(modeOf), [0o600, 0o600, 0o600]);
  } finally {
    db.close();
    old.close();
  }
});

void test('Security (issue 33 #6): the state folder is created 0700, and an existing 0755 one is narrowed; a readonly open changes nothing', (t) => {
  const root = tempDir(t);
  const fresh = join(root, 'fresh', 'home');
  ensurePrivateDir(fresh);
  assert.equal(modeOf(fresh), 0o700);
  const older = join(root, 'older');
  ensurePrivateDir(older);
  chmodSync(older, 0o755);
  ensurePrivateDir(older);
  assert.equal(modeOf(older), 0o700);

  const file = join(root, 'other.db');
  new Database(file).close();
  chmodSync(file, 0o644);
  openDatabase(file, { readonly: true }).close();
  assert.equal(modeOf(file), 0o644, 'a readonly reader (a backup, a job) does not touch the file');
});
