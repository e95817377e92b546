// Issue 16 #2: one source for each row type. The event row and the chat row
// are zod schemas beside their tables (shared/events/types.ts,
// shared/db/chat-messages.ts); the channels that carry rows across threads
// (tail, ingest) use those very schemas, and what the tables give back
// matches them exactly (no column missing, none extra). The jobs contract
// is the pool's one source too: nothing under supervisor/ or shared/ imports
// from workers/. And worker threads open svc's database one way.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestContract } from '../../shared/channels/ingest.ts';
import { tailContract } from '../../shared/channels/tail.ts';
import { ChatRowSchema, createChatMessages } from '../../shared/db/chat-messages.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createEventQueries } from '../../shared/events/queries.ts';
import { EventRowSchema } from '../../shared/events/types.ts';
import { createLogger } from '../../shared/log.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function setup(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-rows-'));
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const tx = createTx(db, (err) => assert.fail(String(err)));
  return { db, tx };
}

void test('One source (issue 16 #2): the tail and ingest channels carry the tables\' own row schemas', () => {
  assert.equal(tailContract.events.events.shape.rows.element, EventRowSchema);
  assert.equal(tailContract.events.chat.shape.rows.element, ChatRowSchema);
  const appended = ingestContract.requests.appendBody.result.options[0];
  assert.equal(appended?.shape.rows.element, EventRowSchema);
});

void test('One source (issue 16 #2): rows read back from the events and chat tables match their schemas exactly', (t) => {
  const { db, tx } = setup(t);
  const log = createEventLog({ db, tx, logger: createLogger({ level: 'silent' }) });
  const appended = log.append({ kind: 'tool_call', teamId: 't1', data: { tool: 'x' } });
  const [read] = createEventQueries(db).page(0, appended.seq, {}, 10);
  for (const row of [appended, read]) assert.deepEqual(EventRowSchema.strict().parse(row), row);
  const chat = createChatMessages(db, tx);
  const [inserted] = chat.insert('s1', [{ entryId: 'e1', text: 'hi' }]);
  const [paged] = chat.pageBefore('s1', null, 10);
  for (const row of [inserted, paged]) assert.deepEqual(ChatRowSchema.strict().parse(row), row);
});

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });

void test('One source (issue 16 #2): nothing under supervisor/ or shared/ imports from workers/', () => {
  const workers = join(ROOT, 'workers');
  const offending: string[] = [];
  for (const file of [...walk(join(ROOT, 'supervisor')), ...walk(join(ROOT, 'shared'))]) {
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), m[1] ?? '');
      if (!relative(workers, target).startsWith('..')) offending.push(`${relative(ROOT, file)} → ${m[1]}`);
    }
  }
  assert.deepEqual(offending, []);
});

void test('One source (issue 16 #2): worker threads open svc\'s database only through shared/db/open.ts', () => {
  // Its pragmas (busy timeout, cache, mmap) and its read-only option are one rule; a thread that
  // opened better-sqlite3 itself would drift from it.
  const offending = walk(join(ROOT, 'workers'))
    .filter((file) => /^import\s+(?!type\b)[^;]*from\s+['"]better-sqlite3['"]/m.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT, file));
  assert.deepEqual(offending, []);
});

void test('One source (issue 32 #4): SQL is written only under shared/: the supervisor and the workers call its stores', () => {
  // A statement prepared from SQL text, or a script or pragma run on a connection: none of that happens outside shared/.
  const sql = /\.prepare\(\s*[`'"]|\bdb\.(exec|pragma)\(/;
  const offending = [...walk(join(ROOT, 'supervisor')), ...walk(join(ROOT, 'workers'))]
    .filter((file) => sql.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT, file));
  assert.deepEqual(offending, []);
});
