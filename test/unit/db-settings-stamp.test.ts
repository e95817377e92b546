// Issue 31: a settings value read once is kept until the settings stamp
// (migration 17) moves, and every write moves it, whoever makes it: this
// table, another connection, plain SQL in another process's style, a delete.
// A value read inside a transaction that rolls back is never kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';

function twoConnections(t: { after(fn: () => void): void }): { a: Db; b: Db } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-stamp-'));
  const a = openDatabase(join(dir, 'svc.db'));
  const b = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { a, b };
}

const stamp = (db: Db) => db.prepare('SELECT n FROM settings_stamp WHERE id = 1').pluck().get() as number;

void test('every kind of settings write moves the stamp', (t) => {
  const { a } = twoConnections(t);
  const table = createSettingsTable(a);
  const at = [stamp(a)];
  table.set('k', 'one');
  at.push(stamp(a));
  table.set('k', 'two');
  at.push(stamp(a));
  table.delete('k');
  at.push(stamp(a));
  a.prepare(`INSERT INTO settings (key, value, updated_at) VALUES ('raw', 'x', 1)`).run();
  at.push(stamp(a));
  assert.deepEqual(at, [0, 1, 2, 3, 4]);
});

void test("a kept value gives way to another connection's write, and to plain SQL", (t) => {
  const { a, b } = twoConnections(t);
  const reader = createSettingsTable(a);
  const writer = createSettingsTable(b);
  assert.equal(reader.get('registry'), null);
  writer.set('registry', 'v1');
  assert.equal(reader.get('registry'), 'v1');
  assert.equal(reader.get('registry'), 'v1');
  b.prepare(`UPDATE settings SET value = 'v2' WHERE key = 'registry'`).run();
  assert.equal(reader.get('registry'), 'v2');
  writer.delete('registry');
  assert.equal(reader.get('registry'), null);
});

void test('a value read inside a transaction that rolls back is not kept', (t) => {
  const { a, b } = twoConnections(t);
  const table = createSettingsTable(a);
  table.set('k', 'committed');
  assert.equal(table.get('k'), 'committed');
  const rolledBack = a.transaction(() => {
    table.set('k', 'rolled back');
    assert.equal(table.get('k'), 'rolled back');
    throw new Error('undo');
  });
  assert.throws(rolledBack, /undo/);
  // Another connection's commit brings the stamp to the number the rolled-back write had reached.
  createSettingsTable(b).set('other', 'x');
  assert.equal(table.get('k'), 'committed');
});
