// The tail worker. Every tick it reads rows past the delivered watermark from
// the event log and the chat-messages table — one query per table, however
// many clients are connected — and posts them to the supervisor. Rows written
// by other processes on the same file (the MCP stdio binaries) are seen here.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { EVENT_COLUMNS_SQL } from '../../shared/events/types.ts';
import { serveChannel } from '../../shared/channels/server.ts';
import { TailWorkerData, WATERMARK, tailContract } from '../../shared/channels/tail.ts';
import type { EventRow } from '../../shared/events/types.ts';
import type { ChatRow } from '../../shared/db/chat-messages.ts';

if (!parentPort) throw new Error('tail worker must run in a worker thread');
const port = parentPort;
const data = TailWorkerData.parse(workerData);
const marks = new Float64Array(data.watermarks);

const db: Db = openDatabase(data.dbPath, { migrate: false });
const eventsStmt = db.prepare(`SELECT ${EVENT_COLUMNS_SQL} FROM events WHERE seq > ? ORDER BY seq LIMIT ?`);
const chatStmt = db.prepare(
  `SELECT id, entry_id AS entryId, session_key AS sessionKey, entry, created_at AS createdAt
   FROM chat_messages WHERE id > ? ORDER BY id LIMIT ?`,
);

// Start from the supervisor's watermark: what it already delivered (or chose
// not to replay at boot) is never posted again.
let eventsCursor = marks[WATERMARK.events] ?? 0;
let chatCursor = marks[WATERMARK.chat] ?? 0;
let ticks = 0;
let queries = 0;
let timer: NodeJS.Timeout | null = null;
let stopped = false;

function tick(): number {
  ticks++;
  let q = 0;
  // Skip rows the supervisor delivered itself at commit time.
  eventsCursor = Math.max(eventsCursor, marks[WATERMARK.events] ?? 0);
  const events = eventsStmt.all(eventsCursor, data.batchSize) as EventRow[];
  q++;
  if (events.length > 0) {
    eventsCursor = (events[events.length - 1] as EventRow).seq;
    server.emit('events', { rows: events });
  }
  chatCursor = Math.max(chatCursor, marks[WATERMARK.chat] ?? 0);
  const chat = chatStmt.all(chatCursor, data.batchSize) as ChatRow[];
  q++;
  if (chat.length > 0) {
    chatCursor = (chat[chat.length - 1] as ChatRow).id;
    server.emit('chat', { rows: chat });
  }
  queries += q;
  // A full batch means a backlog: read on at once rather than a tick later.
  if (events.length === data.batchSize || chat.length === data.batchSize) schedule(0);
  return q;
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
  stats: () => ({ ticks, queries }),
  stop: () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    db.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});

server.emit('ready', { eventsCursor, chatCursor });
schedule(data.intervalMs);
