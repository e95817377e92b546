// shared/events/event-log.ts on a real temporary SQLite file. Spec
// "Orchestration event row" (masked data, monotonic seq, append-only) and
// "Events" (the kinds).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createTx, type Tx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import type { EventInput, EventRow } from '../../shared/events/types.ts';
import { createLogger } from '../../shared/log.ts';

const B = '••••';
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NOW = 1_700_000_000_000;

function setup(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-events-'));
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const lines: string[] = [];
  const logger = createLogger({ level: 'info' }, { write: (s: string) => void lines.push(s) });
  const tx: Tx = createTx(db, (err) => assert.fail(String(err)));
  const committed: EventRow[][] = [];
  const log = createEventLog({ db, tx, logger, onCommitted: (rows) => committed.push(rows), now: () => NOW });
  const logs = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { db, tx, log, committed, logs };
}

const stored = (db: Db) => db.prepare('SELECT seq, id, kind, data FROM events ORDER BY seq').all() as Array<Pick<EventRow, 'seq' | 'id' | 'kind' | 'data'>>;

void test('Orchestration event row: data is masked before it is stored; numbers survive', (t) => {
  const { db, log } = setup(t);
  const row = log.append({
    kind: 'tool_call',
    teamId: 't1',
    data: {
      apiKey: 'k-live-123', nested: { password: 'hunter2', ok: true }, note: 'Authorization: Bearer abcdefghijkl',
      inputTokens: 5, tokensPerMinute: 1.5, gatewayToken: 42, list: ['sk-abcdefghijklmnopqrstu'],
    },
  });
  const expected = {
    apiKey: B, nested: { password: B, ok: true }, note: `Authorization: Bearer ${B}`,
    inputTokens: 5, tokensPerMinute: 1.5, gatewayToken: 42, list: [B],
  };
  const [r] = stored(db);
  assert.deepEqual(JSON.parse(r?.data ?? ''), expected);
  for (const secret of ['k-live-123', 'hunter2', 'abcdefghijkl', 'sk-abcdef']) assert.ok(!r?.data.includes(secret), secret);
  assert.equal(row.data, r?.data, 'the returned row is the stored row');
  assert.equal(row.teamId, 't1');
  assert.equal(row.taskId, null);
  assert.equal(row.runtime, null);
  assert.equal(row.ts, NOW);
  assert.equal(row.createdAt, NOW);
});

void test('Orchestration event row: non-object data is stored as {}', (t) => {
  const { db, log } = setup(t);
  for (const data of ['text', 5, null, undefined, true]) log.append({ kind: 'cost', data });
  assert.deepEqual(stored(db).map((r) => r.data), ['{}', '{}', '{}', '{}', '{}']);
});

void test('Orchestration event row: seq strictly increases, ids are UUIDv7, ts is kept (truncated) when given', (t) => {
  const { db, log } = setup(t);
  const rows = log.appendMany([
    { kind: 'span_start', ts: 1234.9 },
    { kind: 'span_end', ts: Number.NaN },
    { kind: 'error' },
  ]);
  rows.push(log.append({ kind: 'team_chat_post' }));
  const seqs = rows.map((r) => r.seq);
  assert.deepEqual(seqs, stored(db).map((r) => r.seq));
  for (let i = 1; i < seqs.length; i++) assert.ok((seqs[i] as number) > (seqs[i - 1] as number), String(seqs));
  for (const r of rows) assert.match(r.id, V7);
  assert.equal(new Set(rows.map((r) => r.id)).size, 4);
  assert.deepEqual(rows.map((r) => r.ts), [1234, NOW, NOW, NOW]);
  assert.equal(log.maxSeq(), seqs[3]);
});

void test('Events: an unknown kind throws, is logged and writes nothing (the whole batch rolls back)', (t) => {
  const { db, log, committed, logs } = setup(t);
  const bogus = { kind: 'bogus_kind', data: {} } as unknown as EventInput;
  assert.throws(() => log.append(bogus));
  assert.throws(() => log.appendMany([{ kind: 'tool_call' }, bogus]));
  assert.deepEqual(stored(db), []);
  assert.deepEqual(committed, []);
  const errors = logs().filter((l) => l.msg === 'event log write failed');
  assert.equal(errors.length, 2);
  assert.deepEqual(errors[1]?.kinds, ['tool_call', 'bogus_kind']);
  assert.equal(errors[1]?.count, 2);
  assert.equal(errors[1]?.level, 50);
});

void test('Orchestration event row: onCommitted gets each committed batch once, after commit', (t) => {
  const { db, tx, log, committed } = setup(t);
  const a = log.append({ kind: 'tool_call' });
  assert.deepEqual(committed, [[a]]);
  const batch = log.appendMany([{ kind: 'tool_result' }, { kind: 'cost' }]);
  assert.deepEqual(committed, [[a], batch]);
  tx.run(() => {
    log.append({ kind: 'error' });
    log.append({ kind: 'error' });
    assert.equal(committed.length, 2, 'nothing offered before the enclosing commit');
  });
  assert.equal(committed.length, 4);
  assert.deepEqual(committed.slice(2).map((rows) => rows.map((r) => r.kind)), [['error'], ['error']]);
  assert.equal(stored(db).length, 5);
  assert.deepEqual(log.appendMany([]), []);
  assert.equal(committed.length, 4, 'an empty batch offers nothing');
});

void test('Orchestration event row: rows of an enclosing transaction that throws are neither offered nor stored', (t) => {
  const { db, tx, log, committed } = setup(t);
  assert.throws(() => tx.run(() => {
    log.append({ kind: 'task_created', taskId: 'x' });
    throw new Error('board mutation failed');
  }), /board mutation failed/);
  assert.deepEqual(committed, []);
  assert.deepEqual(stored(db), []);
  assert.equal(log.maxSeq(), 0);
});

void test('Orchestration event row: a write failure (table gone) is logged with its kind and rethrown', (t) => {
  const { db, log, committed, logs } = setup(t);
  db.exec('DROP TABLE events');
  assert.throws(() => log.append({ kind: 'tool_call', data: { apiKey: 'k-secret-9' } }), /no such table/);
  const [line] = logs().filter((l) => l.msg === 'event log write failed');
  assert.ok(line, 'logged');
  assert.equal(line.level, 50);
  assert.deepEqual(line.kinds, ['tool_call']);
  assert.match(String((line.err as { message?: string }).message), /no such table/, 'the logged error carries its cause');
  assert.deepEqual(committed, []);
});

void test('Orchestration event row: a write on a closed database is logged and rethrown', (t) => {
  const { db, log, logs } = setup(t);
  db.close();
  assert.throws(() => log.append({ kind: 'cost' }), /not open/);
  const [line] = logs().filter((l) => l.msg === 'event log write failed');
  assert.deepEqual(line?.kinds, ['cost']);
  assert.equal(line?.count, 1);
});
