// The cached list's change detector and request validators (beyond the spec:
// GET /api/teams is served from a body cached per database version, gzipped
// for clients that accept it, with ETags and 304s). Real SQLite files.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createDbVersion } from '../../shared/db/db-version.ts';
import { acceptsGzip, ifNoneMatchHits } from '../../supervisor/http/conditional.ts';

function tempDb(t: TestContext): { db: Db; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-dbv-'));
  const path = join(dir, 'svc.db');
  const db = openDatabase(path);
  t.after(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, path };
}

const put = (db: Db, key: string) =>
  db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 1) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, String(Math.random()));

void test('Cached list: the database version moves with every commit, own or another connection\'s, and only then', (t) => {
  const { db, path } = tempDb(t);
  const fallbacks: unknown[] = [];
  const version = createDbVersion(db, (err) => fallbacks.push(err));
  t.after(() => version.close());

  const v0 = version();
  assert.equal(version(), v0, 'no commit, same version');
  db.prepare('SELECT COUNT(*) FROM settings').get();
  assert.equal(version(), v0, 'a read is not a change');

  put(db, 'own');
  const v1 = version();
  assert.notEqual(v1, v0, 'a commit on this connection');
  assert.equal(version(), v1);

  const other = openDatabase(path, { migrate: false });
  try {
    put(other, 'other');
    const v2 = version();
    assert.notEqual(v2, v1, 'a commit on another connection');

    // A checkpoint that empties the WAL, then a commit that starts it over
    // from frame 0 (a new salt): still seen.
    other.pragma('wal_checkpoint(TRUNCATE)');
    put(other, 'after-reset');
    assert.notEqual(version(), v2, 'a commit after the WAL restarted');

    // A rolled-back transaction changes nothing.
    const v3 = version();
    other.exec('BEGIN IMMEDIATE');
    put(other, 'rolled-back');
    other.exec('ROLLBACK');
    assert.equal(version(), v3, 'a rollback is not a change');
  } finally {
    other.close();
  }

  // A plain better-sqlite3 connection (another program) is seen too.
  const foreign = new Database(path);
  try {
    const v4 = version();
    foreign.prepare("UPDATE settings SET value = 'x' WHERE key = 'own'").run();
    assert.notEqual(version(), v4);
  } finally {
    foreign.close();
  }
  assert.deepEqual(fallbacks, [], 'read from the WAL index, not by query');
});

void test('Cached list: without a WAL index (an in-memory database) the version comes from SQL and still moves', (t) => {
  const db = new Database(':memory:');
  t.after(() => db.close());
  db.exec('CREATE TABLE x (v INTEGER)');
  const version = createDbVersion(db, () => assert.fail('an in-memory database is not a fallback error'));
  const v0 = version();
  assert.equal(version(), v0);
  db.prepare('INSERT INTO x VALUES (1)').run();
  assert.notEqual(version(), v0);
  version.close();
});

void test('Cached list: Accept-Encoding allows gzip only when a gzip (or *) entry has q > 0', () => {
  const yes = ['gzip', 'gzip, deflate, br, zstd', 'br;q=1.0, gzip;q=0.8, *;q=0.1', 'GZIP', '*', 'deflate, *;q=0.5', 'x-gzip'];
  const no = [undefined, '', 'identity', 'br', 'gzip;q=0', 'gzip;q=0.0, br', '*;q=0', 'br, *;q=0', 'gzip;q=0, *;q=1'];
  for (const h of yes) assert.equal(acceptsGzip(h), true, String(h));
  for (const h of no) assert.equal(acceptsGzip(h), false, String(h));
});

void test('Cached list: If-None-Match matches the ETag alone, in a list, weakly, or as *', () => {
  const etag = '"abc"';
  for (const h of ['"abc"', '"x", "abc"', 'W/"abc"', '*', ' "abc" ']) assert.equal(ifNoneMatchHits(h, etag), true, h);
  for (const h of [undefined, '', '"abd"', '"abc-gz"', 'abc', '"x", "y"']) assert.equal(ifNoneMatchHits(h, etag), false, String(h));
});
