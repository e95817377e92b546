// shared/db/write-batch.ts on a real temporary SQLite file: writes queued in
// one turn commit together on the next, each in its own savepoint, so one
// that throws undoes only itself; a second connection sees nothing of a batch
// before its commit. Also: a connection opened with autoCheckpoint false never
// checkpoints on its own commits.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, setAutoCheckpoint, type Db } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createWriteBatch } from '../../shared/db/write-batch.ts';

function tempDb(t: TestContext, opts: { autoCheckpoint?: boolean } = {}): { db: Db; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-batch-'));
  const path = join(dir, 'svc.db');
  const db = openDatabase(path, opts);
  t.after(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, path };
}

/** A batch whose flushes the test runs by hand, and what another connection sees of the settings under `prefix`. */
function handFlushed(t: TestContext, prefix: string) {
  const { db, path } = tempDb(t);
  const tx = createTx(db, (err) => assert.fail(String(err)));
  const settings = createSettingsTable(db);
  const flushes: Array<() => void> = [];
  const batch = createWriteBatch(tx, (flush) => flushes.push(flush));
  const other = openDatabase(path, { migrate: false });
  t.after(() => other.close());
  const seen = () => other.prepare('SELECT key FROM settings WHERE key LIKE ? ORDER BY key').pluck().all(`${prefix}.%`);
  return { settings, flushes, batch, seen };
}

void test('Write batch: writes of one turn share one flush; a throwing write is undone alone and rejects; the others commit and resolve', async (t) => {
  const { settings, flushes, batch, seen } = handFlushed(t, 'batch');

  const first = batch.run(() => {
    settings.set('batch.a', '1');
    return 'a';
  });
  const second = batch.run(() => {
    settings.set('batch.b', '2');
    throw new Error('b failed');
  });
  const third = batch.run(() => {
    settings.set('batch.c', '3');
    return 'c';
  });
  assert.equal(flushes.length, 1, 'one flush scheduled for the turn');
  assert.deepEqual(seen(), [], 'nothing written before the flush');
  (flushes[0] as () => void)();
  assert.deepEqual(await Promise.allSettled([first, second, third]), [
    { status: 'fulfilled', value: 'a' },
    { status: 'rejected', reason: new Error('b failed') },
    { status: 'fulfilled', value: 'c' },
  ]);
  assert.deepEqual(seen(), ['batch.a', 'batch.c'], 'the failed write left nothing; the others committed');

  // A write after the flush starts the next batch.
  const fourth = batch.run(() => settings.set('batch.d', '4'));
  assert.equal(flushes.length, 2);
  (flushes[1] as () => void)();
  await fourth;
  assert.deepEqual(seen(), ['batch.a', 'batch.c', 'batch.d']);
});

void test('Write batch: by default the flush runs on the next turn, and a write sees the ones queued before it', async (t) => {
  const { db } = tempDb(t);
  const tx = createTx(db, (err) => assert.fail(String(err)));
  const settings = createSettingsTable(db);
  const batch = createWriteBatch(tx);
  const a = batch.run(() => settings.set('batch.n', '1'));
  const b = batch.run(() => settings.get('batch.n'));
  assert.equal(settings.get('batch.n'), null, 'not yet written in this turn');
  await a;
  assert.equal(await b, '1');
});

void test('Database: a connection opened with autoCheckpoint false leaves its commits in the WAL; a default one checkpoints at the threshold', (t) => {
  const walBytes = ({ db, path }: { db: Db; path: string }) => {
    const settings = createSettingsTable(db);
    // About 2,000 pages in all, twice SQLite's 1,000-page threshold, one commit each.
    for (let i = 0; i < 500; i++) settings.set(`k${i}`, 'x'.repeat(14_000));
    return statSync(`${path}-wal`).size;
  };
  const pageBytes = 4096;
  const off = walBytes(tempDb(t, { autoCheckpoint: false }));
  const on = walBytes(tempDb(t));
  assert.ok(off > 1500 * pageBytes, `the WAL kept every commit: ${off} bytes`);
  assert.ok(on < 1200 * pageBytes, `the WAL was checkpointed and reused: ${on} bytes`);
});

void test('Database: setAutoCheckpoint turns a connection\'s own checkpoints off and back on (the supervisor while its tail worker runs, and after it exits)', (t) => {
  const opened = tempDb(t);
  const settings = createSettingsTable(opened.db);
  const fill = (from: number) => {
    for (let i = from; i < from + 500; i++) settings.set(`k${i}`, 'x'.repeat(14_000));
    return statSync(`${opened.path}-wal`).size;
  };
  const pageBytes = 4096;
  setAutoCheckpoint(opened.db, false);
  const off = fill(0);
  assert.ok(off > 1500 * pageBytes, `off: the WAL kept every commit: ${off} bytes`);
  setAutoCheckpoint(opened.db, true);
  fill(500);
  assert.equal(opened.db.pragma('wal_autocheckpoint', { simple: true }), 1000);
  // The WAL file keeps its size once grown, but a checkpoint ran: its frames are in the main file.
  const [row] = opened.db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
  assert.ok(row && row.log < 1200, `on: the commits after the switch reused a checkpointed WAL (${row?.log} frames in it)`);
});

void test('Write batch: runEager commits at once when no batch is waiting, and joins the waiting batch otherwise', async (t) => {
  const { settings, flushes, batch, seen } = handFlushed(t, 'eager');

  const alone = batch.runEager(() => {
    settings.set('eager.a', '1');
    return 'a';
  });
  assert.equal(alone, 'a', 'the value itself, not a promise');
  assert.deepEqual(seen(), ['eager.a'], 'committed before runEager returned');
  assert.equal(flushes.length, 0, 'no batch was scheduled');

  const queued = batch.run(() => settings.set('eager.b', '2'));
  const joined = batch.runEager(() => {
    settings.set('eager.c', '3');
    return 'c';
  });
  assert.ok(joined instanceof Promise, 'a promise: it waits for the batch');
  assert.deepEqual(seen(), ['eager.a'], 'nothing of the batch before its flush');
  assert.equal(flushes.length, 1);
  (flushes[0] as () => void)();
  await queued;
  assert.equal(await joined, 'c');
  assert.deepEqual(seen(), ['eager.a', 'eager.b', 'eager.c']);
  assert.throws(() => batch.runEager(() => {
    settings.set('eager.d', '4');
    throw new Error('d failed');
  }), /d failed/);
  assert.deepEqual(seen(), ['eager.a', 'eager.b', 'eager.c'], 'a write that threw at once left nothing');
});
