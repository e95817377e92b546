// shared/db on a real temporary SQLite file. Spec "What the service does"
// (Persistence: SQLite in WAL mode at <state_dir>/svc.db plus a `settings`
// table) and "Transcript entry" (chat rows, the id is the stream cursor).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChatMessages, type ChatRow } from '../../shared/db/chat-messages.ts';
import { LATEST_VERSION, MIGRATIONS, declaredSchema, listTables, migrate } from '../../shared/db/migrations.ts';
import { BUSY_TIMEOUT_MS, SchemaTooNewError, checkpointAndClose, openDatabase, type Db } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';

function tempDb(t: TestContext): { db: Db; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-db-'));
  const path = join(dir, 'nested', 'svc.db');
  const db = openDatabase(path);
  t.after(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, path };
}

const count = (db: Db, table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

void test('What the service does (Persistence): the file opens in WAL with foreign keys and a busy timeout', (t) => {
  const { db } = tempDb(t);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(db.pragma('busy_timeout', { simple: true }), BUSY_TIMEOUT_MS);
  assert.equal(db.pragma('user_version', { simple: true }), LATEST_VERSION);
  assert.ok(LATEST_VERSION >= 1);
});

void test('What the service does (Persistence): migrating twice is a no-op and the schema matches the declared one', (t) => {
  const { db, path } = tempDb(t);
  const before = listTables(db);
  for (const core of ['chat_messages', 'events', 'settings']) assert.ok(before.some((x) => x.name === core), core);
  assert.deepEqual(declaredSchema(), before);
  db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('k', 'v', 1)").run();
  migrate(db);
  migrate(db);
  assert.deepEqual(listTables(db), before);
  assert.equal(db.pragma('user_version', { simple: true }), LATEST_VERSION);
  assert.equal(count(db, 'settings'), 1, 'data kept');
  // Reopening the same file migrates nothing either.
  checkpointAndClose(db);
  const again = openDatabase(path);
  try {
    assert.deepEqual(listTables(again), before);
    assert.equal(count(again, 'settings'), 1);
  } finally {
    again.close();
  }
});

void test('What the service does (Persistence): afterCommit hooks run after commit, not before', (t) => {
  const { db } = tempDb(t);
  const tx = createTx(db, (err) => assert.fail(String(err)));
  const seen: number[] = [];
  tx.run(() => {
    db.prepare("INSERT INTO settings VALUES ('a', '1', 1)").run();
    tx.afterCommit(() => seen.push(count(db, 'settings')));
    assert.deepEqual(seen, [], 'not yet');
  });
  assert.deepEqual(seen, [1]);
  tx.afterCommit(() => seen.push(-1)); // outside any transaction: runs at once
  assert.deepEqual(seen, [1, -1]);
});

void test('What the service does (Persistence): a rollback drops hooks; a failing hook does not undo the commit', (t) => {
  const { db } = tempDb(t);
  const hookErrors: unknown[] = [];
  const tx = createTx(db, (err) => hookErrors.push(err));
  const seen: string[] = [];
  assert.throws(() => tx.run(() => {
    db.prepare("INSERT INTO settings VALUES ('a', '1', 1)").run();
    tx.afterCommit(() => seen.push('rolled back'));
    throw new Error('boom');
  }), /boom/);
  assert.equal(seen.length, 0);
  assert.equal(count(db, 'settings'), 0);
  tx.run(() => {
    db.prepare("INSERT INTO settings VALUES ('b', '1', 1)").run();
    tx.afterCommit(() => { throw new Error('subscriber failed'); });
    tx.afterCommit(() => seen.push('second'));
  });
  assert.equal(count(db, 'settings'), 1);
  assert.deepEqual(seen, ['second']);
  assert.equal(hookErrors.length, 1);
});

void test('What the service does (Persistence): an inner savepoint rollback drops only the inner hooks', (t) => {
  const { db } = tempDb(t);
  const tx = createTx(db, (err) => assert.fail(String(err)));
  const seen: string[] = [];
  tx.run(() => {
    db.prepare("INSERT INTO settings VALUES ('outer', '1', 1)").run();
    tx.afterCommit(() => seen.push('outer'));
    assert.throws(() => tx.run(() => {
      db.prepare("INSERT INTO settings VALUES ('inner', '1', 1)").run();
      tx.afterCommit(() => seen.push('inner-failed'));
      throw new Error('inner');
    }));
    tx.run(() => tx.afterCommit(() => seen.push('inner-ok')));
    assert.deepEqual(seen, [], 'inner hooks wait for the outermost commit');
  });
  assert.deepEqual(seen, ['outer', 'inner-ok']);
  assert.deepEqual(db.prepare('SELECT key FROM settings').pluck().all(), ['outer']);
});

void test('Transcript entry: chat inserts are idempotent on entryId and skip entries without one', (t) => {
  const { db } = tempDb(t);
  const tx = createTx(db, (err) => assert.fail(String(err)));
  const committed: ChatRow[][] = [];
  const chat = createChatMessages(db, tx, (rows) => committed.push(rows), () => 1234);
  const rows = chat.insert('s1', [{ entryId: 'e1', text: 'hi' }, { text: 'no id' }, { entryId: '' }, { entryId: 7 }]);
  assert.equal(rows.length, 1);
  assert.deepEqual({ ...rows[0], id: 0 }, {
    id: 0, entryId: 'e1', sessionKey: 's1', entry: JSON.stringify({ entryId: 'e1', text: 'hi', sessionKey: 's1' }), createdAt: 1234,
  });
  assert.deepEqual(committed, [rows]);
  assert.deepEqual(chat.insert('s1', [{ entryId: 'e1', text: 'changed' }]), []);
  assert.deepEqual(chat.insert('s2', [{ entryId: 'e2' }, { entryId: 'e2' }]).map((r) => r.entryId), ['e2']);
  assert.equal(count(db, 'chat_messages'), 2);
  assert.equal(committed.length, 2, 'no callback for an insert that added nothing');
  const stored = db.prepare("SELECT entry FROM chat_messages WHERE entry_id = 'e1'").pluck().get() as string;
  assert.equal(JSON.parse(stored).text, 'hi', 'the first insert wins');
});

void test('Transcript entry: chat ids are monotonic and never reused after deleting the last row', (t) => {
  const { db } = tempDb(t);
  const tx = createTx(db, (err) => assert.fail(String(err)));
  const chat = createChatMessages(db, tx);
  const ids = chat.insert('s', [1, 2, 3].map((n) => ({ entryId: `e${n}` }))).map((r) => r.id);
  assert.equal(ids.length, 3);
  assert.ok((ids[0] as number) < (ids[1] as number) && (ids[1] as number) < (ids[2] as number));
  assert.equal(chat.maxId(), ids[2]);
  db.prepare('DELETE FROM chat_messages WHERE id = ?').run(ids[2]);
  assert.equal(chat.maxId(), ids[1]);
  const [next] = chat.insert('s', [{ entryId: 'e4' }]);
  assert.ok(next && next.id > (ids[2] as number), `id ${next?.id} reused`);
});

void test('What the service does (Persistence): the settings table gets, upserts and deletes', (t) => {
  const { db } = tempDb(t);
  let clock = 10;
  const settings = createSettingsTable(db, () => clock);
  assert.equal(settings.get('lead:name'), null);
  settings.set('lead:name', 'Ada');
  assert.equal(settings.get('lead:name'), 'Ada');
  clock = 20;
  settings.set('lead:name', 'Grace');
  assert.equal(settings.get('lead:name'), 'Grace');
  assert.deepEqual(db.prepare('SELECT key, value, updated_at AS u FROM settings').all(), [{ key: 'lead:name', value: 'Grace', u: 20 }]);
  settings.set('other', '');
  assert.equal(settings.get('other'), '', 'an empty value is not null');
  settings.delete('lead:name');
  settings.delete('never-set');
  assert.equal(settings.get('lead:name'), null);
  assert.equal(count(db, 'settings'), 1);
});

void test('What the service does (Persistence, issue 15 #18): a database with a newer schema than this build knows is refused, with a clear message, and left unchanged', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-db-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'svc.db');
  // What a newer svc left behind: more migrations than this build has, in rollback-journal mode.
  const newer = new Database(path);
  newer.exec('CREATE TABLE from_the_future (x INTEGER)');
  newer.pragma(`user_version = ${LATEST_VERSION + 3}`);
  newer.close();
  const before = readFileSync(path);

  assert.throws(() => openDatabase(path), (err: unknown) => {
    assert.ok(err instanceof SchemaTooNewError);
    assert.equal(err.message, `${path} has schema version ${LATEST_VERSION + 3}, newer than this build knows (${LATEST_VERSION}): update svc, or restore a backup`);
    return true;
  });
  assert.deepEqual(readFileSync(path), before, 'not a byte changed');
  assert.equal(existsSync(`${path}-wal`), false, 'not switched to WAL either');
  // A reader that does not migrate (a backup's source) may still open it.
  const reader = openDatabase(path, { readonly: true, migrate: false });
  assert.equal(reader.pragma('user_version', { simple: true }), LATEST_VERSION + 3);
  reader.close();
  // The current version itself opens as usual.
  const same = join(dir, 'same.db');
  openDatabase(same).close();
  openDatabase(same).close();
});

// The sqlite_master of a fresh database through migration 11, dumped from the
// code before migrations 1-4 left shared/db/migrations.ts (issue 16 #3).
// SQLite keeps each CREATE statement's text verbatim, so moving a migration
// must not change a byte of it. Later migrations add rows after these and are
// not part of the comparison.
const SHIPPED_SCHEMA = JSON.parse(readFileSync(new URL('../fixtures/schema-v11.json', import.meta.url), 'utf8')) as unknown;

function sqliteMaster(db: Db): unknown {
  return {
    userVersion: db.pragma('user_version', { simple: true }),
    sqliteMaster: db.prepare('SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY rowid').all(),
  };
}

void test('Clean seams (issue 16 #3): migrations 1-11 build the schema that shipped, byte for byte', () => {
  const mem = new Database(':memory:');
  try {
    for (const m of MIGRATIONS.filter((x) => x.version <= 11)) {
      mem.exec(m.sql);
      mem.pragma(`user_version = ${m.version}`);
    }
    assert.deepEqual(sqliteMaster(mem), SHIPPED_SCHEMA);
  } finally {
    mem.close();
  }
});

void test('Clean seams (issue 16 #3): a database opened fresh starts with the shipped schema', (t) => {
  const { db } = tempDb(t);
  const shipped = SHIPPED_SCHEMA as { sqliteMaster: unknown[] };
  const now = sqliteMaster(db) as { sqliteMaster: unknown[] };
  assert.deepEqual(now.sqliteMaster.slice(0, shipped.sqliteMaster.length), shipped.sqliteMaster);
});

void test('Clean seams (issue 16 #3): every migration is its own file, listed in order, importing only the Migration type', () => {
  const dir = fileURLToPath(new URL('../../shared/db/migrations/', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts')).sort();
  assert.deepEqual(files.map((f) => Number(f.slice(0, 4))), MIGRATIONS.map((m) => m.version), 'one file per listed migration');
  assert.deepEqual(MIGRATIONS.map((m) => m.version), MIGRATIONS.map((_, i) => i + 1), 'versions 1..n in order');
  for (const f of files) {
    const imports = [...readFileSync(join(dir, f), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    assert.deepEqual(imports, ['../migration.ts'], `${f} imports`);
  }
});
