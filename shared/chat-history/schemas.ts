// Spec "Smaller resources" → "Chat history": the inputs of the routes, their
// error strings and the bounds. Query values of the wrong type fall back to
// the defaults (never a 500); a missing sessionKey is the only query 400.
import { z } from 'zod';
import { TranscriptEntry as TeamChatEntry } from '../team-chat/schemas.ts';

export const CHAT_HISTORY_MESSAGES = {
  sessionKeyRequired: 'sessionKey required',
  bodyRequired: 'JSON object body required',
  postFields: 'sessionKey (string) and a non-empty entries array are required',
  sessionKeysRequired: 'sessionKeys must be a non-empty array of session keys',
  noticeOutsideList: 'noticeSessionKey must be one of sessionKeys',
} as const;

export const PAGE_LIMIT = { default: 50, min: 1, max: 500 } as const;

/**
 * A transcript entry as chat history stores it: team chat's (spec "Transcript
 * entry (team chat)", shared/team-chat/schemas.ts) without a team or speaker
 * for a session-level entry such as the reset divider, and open to more
 * fields (stored entries may carry them, e.g. the divider's resetSessionKeys).
 */
export const HistoryEntry = TeamChatEntry.partial({ teamId: true, agentId: true }).loose();
export type HistoryEntry = z.infer<typeof HistoryEntry>;

const SessionKey = z.string().trim().min(1);

/** A page size: an integer clamped to 1..500; anything unreadable is the default. */
function pageLimit(v: unknown): number {
  if (typeof v !== 'string' || v.trim() === '') return PAGE_LIMIT.default;
  const n = Number(v);
  if (!Number.isFinite(n)) return PAGE_LIMIT.default;
  return Math.min(PAGE_LIMIT.max, Math.max(PAGE_LIMIT.min, Math.trunc(n)));
}

/** A row-id cursor: a positive integer, else none (the newest page). */
function cursor(v: unknown): number | null {
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export const HistoryQuery = z.object({
  sessionKey: SessionKey,
  before: z.unknown().optional().transform(cursor),
  limit: z.unknown().optional().transform(pageLimit),
});
export type HistoryQuery = z.output<typeof HistoryQuery>;

export const SessionKeyQuery = z.object({ sessionKey: SessionKey });

/** Entries are kept loose here: one without an entryId is skipped, not refused (the spec). */
export const HistoryPostBody = z.object({
  sessionKey: SessionKey,
  entries: z.array(z.unknown()).min(1),
});

/** The usable keys of a reset-context body: non-blank strings, trimmed, first occurrence kept. */
export function usableSessionKeys(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const keys = v.filter((k): k is string => typeof k === 'string').map((k) => k.trim()).filter((k) => k !== '');
  return [...new Set(keys)];
}
