// Paging the chat history of one session (spec "Chat history"). A page is the
// most recent `limit` rows below the cursor, returned oldest first, with the
// cursor of the page before it (null when nothing older exists). A corrupt
// row (unparseable or not an object) is dropped from the page but still
// counts for the cursor, so paging never stalls or repeats on one.
import type { ChatMessages } from '../db/chat-messages.ts';
import type { Logger } from '../log.ts';
import type { HistoryQuery } from './schemas.ts';

export interface HistoryPage {
  entries: Array<Record<string, unknown>>;
  /** Pass as `before` for the older page; null when this page reaches the first message. */
  nextBefore: number | null;
}

function parseEntry(entry: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(entry);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    // Unparseable text: the caller logs the row id and drops it.
    return null;
  }
}

export function readHistoryPage(chat: ChatMessages, logger: Logger, q: HistoryQuery): HistoryPage {
  // One row more than the page tells whether an older page exists.
  const rows = chat.pageBefore(q.sessionKey, q.before, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const oldest = page[page.length - 1];
  const entries: Array<Record<string, unknown>> = [];
  for (const row of page.reverse()) {
    const e = parseEntry(row.entry);
    if (e) entries.push(e);
    else logger.warn({ rowId: row.id, sessionKey: q.sessionKey }, 'chat history: corrupt row dropped from the page');
  }
  return { entries, nextBefore: rows.length > q.limit && oldest ? oldest.id : null };
}
