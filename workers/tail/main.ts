// The tail worker. Every tick it reads rows past the delivered watermark from
// the event log and the chat-messages table — one query per table, however
// many clients are connected — and posts them to the supervisor. Rows written
// by other processes on the same file (the MCP stdio binaries) are seen here.
// It also checkpoints the WAL every few seconds (PASSIVE: it never waits for
// or blocks a writer), so that the team-chat worker, whose commits sit on the
// path between a user's message and the gateway, never checkpoints itself.
import { parentPort, workerData } from 'node:worker_threads';
import { checkpointPassive, openDatabase, type Db } from '../../shared/db/open.ts';
import { createEventQueries } from '../../shared/events/queries.ts';
import type { EventRow } from '../../shared/events/types.ts';
import { serveChannel } from '../../shared/channels/server.ts';
import { TailWorkerData, WATERMARK, tailContract } from '../../shared/channels/tail.ts';
import { createChatReads, type ChatRow } from '../../shared/db/chat-messages.ts';

if (!parentPort) throw new Error('tail worker must run in a worker thread');
const port = parentPort;
const data = TailWorkerData.parse(workerData);
const marks = new Float64Array(data.watermarks);

const db: Db = openDatabase(data.dbPath, { migrate: false });
const events = createEventQueries(db);
const chat = createChatReads(db);

interface Table<R> {
  /** Rows past the cursor, ascending, at most `limit`. */
  read(cursor: number, limit: number): R[];
  mark: number;
  cursorOf: (row: R) => number;
  emit: (rows: R[]) => void;
  /** Start from the supervisor's watermark: what it delivered (or chose not to replay at boot) is never posted again. */
  cursor: number;
}

function table<R>(t: Omit<Table<R>, 'cursor'>): Table<R> {
  return { ...t, cursor: marks[t.mark] ?? 0 };
}

const tables = [
  table<EventRow>({ read: (cursor, limit) => events.page(cursor, Number.MAX_SAFE_INTEGER, {}, limit), mark: WATERMARK.events, cursorOf: (r) => r.seq, emit: (rows) => server.emit('events', { rows }) }),
  table<ChatRow>({ read: (cursor, limit) => chat.after(cursor, Number.MAX_SAFE_INTEGER, limit), mark: WATERMARK.chat, cursorOf: (r) => r.id, emit: (rows) => server.emit('chat', { rows }) }),
];
let ticks = 0;
let queries = 0;
let checkpoints = 0;
let lastCheckpoint = Date.now();
let timer: NodeJS.Timeout | null = null;
let stopped = false;

/** One query per table; returns whether a table had a full batch (a backlog). */
function readTable<R>(t: Table<R>): boolean {
  // Skip rows the supervisor delivered itself at commit time.
  t.cursor = Math.max(t.cursor, marks[t.mark] ?? 0);
  const rows = t.read(t.cursor, data.batchSize);
  queries++;
  if (rows.length > 0) {
    t.cursor = t.cursorOf(rows[rows.length - 1] as R);
    t.emit(rows);
  }
  return rows.length === data.batchSize;
}

/** How often the WAL is checkpointed (SQLite's own threshold, 1,000 pages, takes a busy writer about this long to fill). */
const CHECKPOINT_EVERY_MS = 2000;

function tick(): number {
  ticks++;
  const before = queries;
  let backlog = false;
  for (const t of tables) backlog = readTable(t as Table<unknown>) || backlog;
  if (Date.now() - lastCheckpoint >= CHECKPOINT_EVERY_MS) {
    lastCheckpoint = Date.now();
    checkpointPassive(db);
    checkpoints++;
  }
  // A full batch means a backlog: read on at once rather than a tick later.
  if (backlog) schedule(0);
  return queries - before;
}

function schedule(delay: number): void {
  if (stopped) return;
  if (timer) clearTimeout(timer);
  timer = setTimeout(loop, delay);
}

function loop(): void {
  timer = null;
  tick();
  if (!timer) schedule(data.intervalMs);
}

const server = serveChannel(tailContract, port, {
  poke: () => ({ queries: tick() }),
  stats: () => ({ ticks, queries, checkpoints }),
  stop: () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    db.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});

server.emit('ready', { eventsCursor: tables[0]?.cursor ?? 0, chatCursor: tables[1]?.cursor ?? 0 });
schedule(data.intervalMs);
