// "Load earlier": the team's transcript is spread over several session keys
// (one per agent, and the team's fallback key), and GET /api/chat-history
// pages back through ONE key at a time (`before` = a row-id cursor, entries
// oldest first, `nextBefore` for the page before; docs/api.md "Chat history").
// This merges those per-key pages into one older block without a gap: an
// entry is revealed only once every key that still has older rows has been
// read back at least as far (a k-way merge over the entries' order).
// Plain functions: no React, no DOM.
import type { TranscriptEntry } from '../../api/types.ts';

/** Paging state of one session key. */
export interface KeyPaging {
  /** Cursor for the next (older) page: rows below this id. */
  before: number;
  /** The key has nothing older than what was read. */
  done: boolean;
  /** Read but not shown yet (older than what another key has been read back to), oldest first. */
  buffer: TranscriptEntry[];
}

export type Paging = Record<string, KeyPaging>;

/** Transcript order: sequenceKey (strictly increasing per writer), then the timestamp, then the id. */
export function compareEntries(a: TranscriptEntry, b: TranscriptEntry): number {
  return a.sequenceKey - b.sequenceKey || a.timestampMs - b.timestampMs || (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0);
}

/** Paging for `keys`, each starting below row `before` (the oldest row the page holds). */
export function startPaging(keys: readonly string[], before: number): Paging {
  const out: Paging = {};
  for (const k of keys) out[k] = { before, done: before <= 1, buffer: [] };
  return out;
}

/** The keys whose next page must be read before anything more can be revealed. */
export function keysToFetch(paging: Paging): string[] {
  return Object.entries(paging)
    .filter(([, p]) => !p.done && p.buffer.length === 0)
    .map(([k]) => k);
}

/** Whether anything older remains (read and buffered, or still on the server). */
export function hasOlder(paging: Paging): boolean {
  return Object.values(paging).some((p) => !p.done || p.buffer.length > 0);
}

/** Adds one page of a key (its entries oldest first) read with that key's cursor. */
export function addPage(paging: Paging, key: string, entries: readonly TranscriptEntry[], nextBefore: number | null): Paging {
  const cur = paging[key];
  if (!cur) return paging;
  const buffer = [...entries].sort(compareEntries).concat(cur.buffer);
  return { ...paging, [key]: { before: nextBefore ?? cur.before, done: nextBefore === null, buffer } };
}

/**
 * Takes out what can be shown now: every buffered entry at or after the cut,
 * the newest "oldest read" entry among keys that still have older rows (all
 * of every key's rows from the cut on have been read). Everything when all
 * keys are done. Nothing while a key with older rows has an empty buffer
 * (read it first: keysToFetch). Returns the entries oldest first.
 */
export function reveal(paging: Paging): { paging: Paging; revealed: TranscriptEntry[] } {
  const open = Object.values(paging).filter((p) => !p.done);
  if (open.some((p) => p.buffer.length === 0)) return { paging, revealed: [] };
  let cut: TranscriptEntry | null = null;
  for (const p of open) {
    const oldest = p.buffer[0] as TranscriptEntry;
    if (cut === null || compareEntries(oldest, cut) > 0) cut = oldest;
  }
  const revealed: TranscriptEntry[] = [];
  const next: Paging = {};
  for (const [k, p] of Object.entries(paging)) {
    const keep = cut === null ? [] : p.buffer.filter((e) => compareEntries(e, cut) < 0);
    const show = cut === null ? p.buffer : p.buffer.filter((e) => compareEntries(e, cut) >= 0);
    revealed.push(...show);
    next[k] = { ...p, buffer: keep };
  }
  revealed.sort(compareEntries);
  return { paging: next, revealed };
}
