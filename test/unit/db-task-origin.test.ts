// Issue 30 #3, migration 16 on a database that already holds tasks: a file
// left at schema version 15 (with a person's task and an agent's) opens at
// the latest version, every old task reads origin `api` (so nothing old is
// delivered by itself after an upgrade), the tasks table keeps the CREATE
// text it shipped with, and the board records `mcp` for a task the tasks
// MCP server creates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createBoard } from '../../shared/board/board.ts';
import { LATEST_VERSION, MIGRATIONS } from '../../shared/db/migrations.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createLogger } from '../../shared/log.ts';

const tasksSql = (db: Database.Database) => db.prepare("SELECT sql FROM sqlite_master WHERE name = 'tasks'").pluck().get() as string;

void test('Issue 30 #3: migration 16 on an existing database: old tasks read origin api, the tasks table is unchanged, new MCP tasks read mcp', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-origin-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'svc.db');

  // What svc left before this migration: schema version 15 and two tasks.
  const old = new Database(path);
  for (const m of MIGRATIONS.filter((x) => x.version <= 15)) {
    old.exec(m.sql);
    old.pragma(`user_version = ${m.version}`);
  }
  const insert = old.prepare(
    `INSERT INTO tasks (id, team_id, title, status, assignee_agent_id, created_by_agent_id, created_at, updated_at)
     VALUES (?, 'team-1', ?, 'todo', 'bob', ?, 1, 1)`,
  );
  insert.run('t-person', 'made by a person', null);
  insert.run('t-agent', 'made by an agent', 'lena');
  const shippedTasksSql = tasksSql(old);
  old.close();

  const db = openDatabase(path);
  t.after(() => db.close());
  assert.equal(db.pragma('user_version', { simple: true }), LATEST_VERSION);
  assert.ok(LATEST_VERSION >= 16);
  assert.equal(tasksSql(db), shippedTasksSql, 'the tasks table is as it shipped');

  const logger = createLogger({ level: 'silent' });
  const tx = createTx(db, (err) => logger.error({ err }, 'hook'));
  const board = createBoard({ db, tx, eventLog: createEventLog({ db, tx, logger }) });
  assert.deepEqual(board.list().map((x) => [x.id, x.createdByAgentId, x.origin]), [['t-agent', 'lena', 'api'], ['t-person', null, 'api']]);

  const viaMcp = board.create({ title: 'through the tasks server', teamId: 'team-1', assigneeAgentId: 'bob' }, 'mcp');
  const viaApi = board.create({ title: 'through the route', teamId: 'team-1', assigneeAgentId: 'bob' });
  assert.deepEqual([board.get(viaMcp.id)?.origin, board.get(viaApi.id)?.origin], ['mcp', 'api']);
  assert.deepEqual(db.prepare('SELECT task_id, origin FROM task_origins').all(), [{ task_id: viaMcp.id, origin: 'mcp' }], 'only a task that is not api has a row');
});
