// `svc backup` (spec "Command-line launcher", backup): naming, directory and
// literal destinations, --force, a missing source, and a consistent copy
// taken while another connection keeps writing.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../shared/db/open.ts';
import { BackupError, backupFileName, resolveBackupDest, runBackup } from '../../shared/launcher/index.ts';
import { REPO_ROOT } from '../helpers/server.ts';
import { startChild } from '../helpers/spawn.ts';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-backup-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real svc database (migrated, WAL) with a few rows, closed cleanly. */
function makeDb(path: string): void {
  const db = openDatabase(path);
  db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('k', 'v', 1);
  db.close();
}

const NOW = new Date(2025, 0, 2, 3, 4, 5);

void test('Command-line launcher: backup file name is svc-backup-<YYYYMMDD-HHMMSS>.db in local time', () => {
  assert.equal(backupFileName(NOW), 'svc-backup-20250102-030405.db');
  assert.equal(backupFileName(new Date(2024, 11, 31, 23, 59, 58)), 'svc-backup-20241231-235958.db');
});

void test('Command-line launcher: backup destination is cwd, inside an existing directory, or the literal path', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'backups'));
  assert.equal(resolveBackupDest(undefined, dir, NOW), join(dir, 'svc-backup-20250102-030405.db'));
  assert.equal(resolveBackupDest('backups', dir, NOW), join(dir, 'backups', 'svc-backup-20250102-030405.db'));
  assert.equal(resolveBackupDest(join(dir, 'backups'), '/elsewhere', NOW), join(dir, 'backups', 'svc-backup-20250102-030405.db'));
  assert.equal(resolveBackupDest('copy.db', dir, NOW), join(dir, 'copy.db'));
  assert.equal(resolveBackupDest('nope/copy.db', dir, NOW), join(dir, 'nope', 'copy.db'));
});

void test('Command-line launcher: backup copies the database; an existing destination needs --force', async (t) => {
  const dir = tempDir(t);
  const source = join(dir, 'svc.db');
  makeDb(source);
  const written = await runBackup({ source, dest: 'copy.db', force: false, cwd: dir });
  assert.equal(written, join(dir, 'copy.db'));
  const copy = new Database(written, { readonly: true });
  assert.deepEqual(copy.prepare('SELECT key, value FROM settings').all(), [{ key: 'k', value: 'v' }]);
  copy.close();

  // A second backup to the same path is refused and leaves the file alone.
  writeFileSync(written, 'not a database');
  await assert.rejects(runBackup({ source, dest: 'copy.db', force: false, cwd: dir }), (err: Error) => {
    assert.ok(err instanceof BackupError);
    assert.match(err.message, /already exists.*--force/);
    return true;
  });
  assert.equal(readFileSync(written, 'utf8'), 'not a database');

  // --force deletes it first and writes a real copy.
  await runBackup({ source, dest: 'copy.db', force: true, cwd: dir });
  const again = new Database(written, { readonly: true });
  assert.equal(again.pragma('integrity_check', { simple: true }), 'ok');
  again.close();
});

void test('Command-line launcher: backup into a directory writes a timestamped file there', async (t) => {
  const dir = tempDir(t);
  const source = join(dir, 'svc.db');
  makeDb(source);
  mkdirSync(join(dir, 'out'));
  const written = await runBackup({ source, dest: join(dir, 'out'), force: false, cwd: '/', now: NOW });
  assert.equal(written, join(dir, 'out', 'svc-backup-20250102-030405.db'));
  assert.ok(existsSync(written));
  await assert.rejects(runBackup({ source, dest: join(dir, 'out'), force: false, cwd: '/', now: NOW }), BackupError);
});

void test('Command-line launcher: backup of a missing source is an error and writes nothing', async (t) => {
  const dir = tempDir(t);
  await assert.rejects(runBackup({ source: join(dir, 'svc.db'), dest: 'copy.db', force: false, cwd: dir }), /no database/);
  assert.equal(existsSync(join(dir, 'copy.db')), false);
  assert.equal(existsSync(join(dir, 'svc.db')), false, 'the read-only open must not create the source');
});

void test('Security (issue 15 #14): a backup is created 0600 and never written through a symlink planted at its name', async (t) => {
  const dir = tempDir(t);
  const outside = tempDir(t);
  const source = join(dir, 'svc.db');
  makeDb(source);
  const predictable = join(dir, backupFileName(NOW));

  // A dangling symlink at the default name: refused, nothing created at its target.
  const target = join(outside, 'planted.db');
  symlinkSync(target, predictable);
  await assert.rejects(runBackup({ source, dest: undefined, force: false, cwd: dir, now: NOW }), (err: Error) => {
    assert.ok(err instanceof BackupError);
    assert.match(err.message, /already exists.*--force/);
    return true;
  });
  assert.equal(existsSync(target), false, 'nothing was written through the symlink');

  // A symlink to an existing file, with --force: the link itself is replaced, the file it pointed at is unchanged.
  writeFileSync(target, 'precious');
  const written = await runBackup({ source, dest: undefined, force: true, cwd: dir, now: NOW });
  assert.equal(written, predictable);
  assert.equal(readFileSync(target, 'utf8'), 'precious');
  assert.equal(lstatSync(written).isSymbolicLink(), false);
  assert.equal(statSync(written).mode & 0o777, 0o600, 'the copy is private');
  const copy = new Database(written, { readonly: true });
  assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
  copy.close();

  // A plain backup is 0600 too, and the private work folder is gone.
  const plain = await runBackup({ source, dest: 'plain.db', force: false, cwd: dir });
  assert.equal(statSync(plain).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith('.svc-backup-')), []);
});

// Each transaction inserts +n and -n: any consistent snapshot sums to zero.
const WRITER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.exec('CREATE TABLE IF NOT EXISTS ledger (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL, pad TEXT NOT NULL)');
const ins = db.prepare('INSERT INTO ledger (amount, pad) VALUES (?, ?)');
const pair = db.transaction((n) => { ins.run(n, 'x'.repeat(200)); ins.run(-n, 'y'.repeat(200)); });
let n = 0;
for (; n < 5000; n++) pair(n + 1);
process.stdout.write('seeded\\n');
let told = false;
setInterval(() => {
  for (let i = 0; i < 50; i++) pair(++n);
  if (!told) process.stdout.write('writing\\n');
  told = true;
}, 1);
`;

void test('Command-line launcher: backup is consistent while another connection writes', async (t) => {
  const dir = tempDir(t);
  const source = join(dir, 'svc.db');
  makeDb(source);
  const writer = startChild(process.execPath, ['-e', WRITER, source], { cwd: REPO_ROOT, cleanup: t });
  await writer.line('writing', { what: 'the writer to commit past its seed' });
  const written = await runBackup({ source, dest: 'live.db', force: false, cwd: dir });
  assert.equal(writer.running(), true, 'the writer was still writing during the backup');

  const copy = new Database(written, { readonly: true });
  t.after(() => copy.close());
  assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
  const { rows, total } = copy.prepare('SELECT count(*) AS rows, sum(amount) AS total FROM ledger').get() as { rows: number; total: number };
  assert.ok(rows >= 10_000, `the seeded rows are in the copy (${rows})`);
  assert.equal(rows % 2, 0, 'no half transaction');
  assert.equal(total, 0, 'the copy is one consistent snapshot');
  assert.deepEqual(copy.prepare('SELECT value FROM settings WHERE key = ?').get('k'), { value: 'v' });
});
