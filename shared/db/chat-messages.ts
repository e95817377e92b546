// The chat-messages table: one transcript entry (JSON) per row; the row id is
// the stream cursor; inserts are idempotent on entryId. Page reads and the
// per-session delete serve the chat-history routes. The row's schema is its
// one source: the tail channel validates tailed rows with it.
import { z } from 'zod';
import type { Db } from './open.ts';
import type { Tx } from './tx.ts';

export const ChatRowSchema = z.object({
  id: z.number().int(),
  entryId: z.string(),
  sessionKey: z.string(),
  /** The transcript entry as JSON text. */
  entry: z.string(),
  createdAt: z.number(),
});
export type ChatRow = z.infer<typeof ChatRowSchema>;

/** The columns of a ChatRow, with the SQL aliases that yield its field names. */
export const CHAT_COLUMNS_SQL = 'id, entry_id AS entryId, session_key AS sessionKey, entry, created_at AS createdAt';

export interface ChatMessages {
  /** Inserts entries that carry an entryId; returns the rows actually inserted (duplicates skipped). */
  insert(sessionKey: string, entries: ReadonlyArray<Record<string, unknown>>): ChatRow[];
  maxId(): number;
  /**
   * Up to `limit` rows of one session with id below `before` (all rows when
   * null), newest first. Rows are returned raw: parsing is the caller's rule.
   */
  pageBefore(sessionKey: string, before: number | null, limit: number): ChatRow[];
  /** Deletes every row of the session; returns how many went. */
  deleteSession(sessionKey: string): number;
}

export function createChatMessages(
  db: Db,
  tx: Tx,
  onCommitted?: (rows: ChatRow[]) => void,
  now: () => number = Date.now,
): ChatMessages {
  const insertStmt = db.prepare(
    `INSERT INTO chat_messages (entry_id, session_key, entry, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (entry_id) DO NOTHING
     RETURNING ${CHAT_COLUMNS_SQL}`,
  );
  const reads = createChatReads(db);
  // Served by the (session_key, id) index: a page is one range scan.
  const pageStmt = db.prepare(
    `SELECT ${CHAT_COLUMNS_SQL}
     FROM chat_messages WHERE session_key = @sessionKey AND (@before IS NULL OR id < @before)
     ORDER BY id DESC LIMIT @limit`,
  );
  const deleteSessionStmt = db.prepare('DELETE FROM chat_messages WHERE session_key = ?');
  return {
    insert(sessionKey, entries) {
      const rows = tx.run(() => {
        const out: ChatRow[] = [];
        for (const e of entries) {
          if (typeof e.entryId !== 'string' || e.entryId === '') continue;
          const row = insertStmt.get(e.entryId, sessionKey, JSON.stringify({ ...e, sessionKey }), now()) as ChatRow | undefined;
          if (row) out.push(row);
        }
        return out;
      });
      if (rows.length > 0 && onCommitted) tx.afterCommit(() => onCommitted(rows));
      return rows;
    },
    maxId: () => reads.maxId(),
    pageBefore: (sessionKey, before, limit) => pageStmt.all({ sessionKey, before, limit }) as ChatRow[],
    deleteSession: (sessionKey) => deleteSessionStmt.run(sessionKey).changes,
  };
}

/** Reads of the table for live streams: catch-up from a cursor (the tail worker, a team's chat stream). */
export interface ChatReads {
  maxId(): number;
  /** Rows with cursor < id <= upTo, ascending, at most `limit`; only those of `keys` when given. */
  after(cursor: number, upTo: number, limit: number, keys?: readonly string[]): ChatRow[];
}

export function createChatReads(db: Db): ChatReads {
  const maxIdStmt = db.prepare('SELECT COALESCE(MAX(id), 0) FROM chat_messages').pluck();
  const allStmt = db.prepare(`SELECT ${CHAT_COLUMNS_SQL} FROM chat_messages WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`);
  // Served by the (session_key, id) index, one range per key.
  const ofKeysStmt = db.prepare(
    `SELECT ${CHAT_COLUMNS_SQL} FROM chat_messages
     WHERE session_key IN (SELECT value FROM json_each(?)) AND id > ? AND id <= ? ORDER BY id LIMIT ?`,
  );
  return {
    maxId: () => maxIdStmt.get() as number,
    after: (cursor, upTo, limit, keys) =>
      (keys === undefined ? allStmt.all(cursor, upTo, limit) : ofKeysStmt.all(JSON.stringify(keys), cursor, upTo, limit)) as ChatRow[],
  };
}
