// "Load earlier": pages back through GET /api/chat-history for each of the
// team's session keys (fetchHistoryPage, api/team-chat.ts), merged without a
// gap (features/chat/transcript-merge.ts), into the chat cache's `older`
// block. One click is one mutation: its pending state and error are what the
// button and the line under it say.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchHistoryPage, teamChatKeys } from '../../api/team-chat.ts';
import type { TranscriptEntry } from '../../api/types.ts';
import {
  addPage, keysToFetch, reveal, startPaging, teamFallbackSessionKey, teamSessionKey, toEntry, type ChatState, type Paging,
} from '../../features/chat/index.ts';
import { chatDispatch } from './use-chat.ts';
import { messageOf } from './messages.ts';

/** Rows per key per request (the route allows 1-500). */
export const HISTORY_PAGE = 100;
/** Rounds of reads per click; each round reads every key that must be read before more can be shown. */
const MAX_ROUNDS = 5;

async function readPage(sessionKey: string, before: number): Promise<{ entries: TranscriptEntry[]; nextBefore: number | null }> {
  const page = await fetchHistoryPage(sessionKey, before, HISTORY_PAGE);
  const entries = page.entries.map(toEntry).filter((e): e is TranscriptEntry => e !== null);
  return { entries, nextBefore: page.nextBefore };
}

export function useLoadEarlier(teamId: string, speakerIds: readonly string[]) {
  const qc = useQueryClient();
  const older = useMutation({
    mutationFn: async (s: ChatState) => {
      let paging: Paging | null = s.paging;
      if (paging === null) {
        // Every key the stream covers (members, the lead, the fallback) and any other key a held row came from.
        const keys = new Set([...speakerIds.map((id) => teamSessionKey(id, teamId)), teamFallbackSessionKey(teamId)]);
        for (const r of s.rows) keys.add(r.entry.sessionKey);
        paging = startPaging([...keys], s.rows[0]?.id ?? s.cursor + 1);
        // From now on the page keeps every row: nothing between the paged-back block and the stream's rows may be dropped.
        chatDispatch(qc, teamId, [{ type: 'pagingStarted', paging }]);
      }
      let revealed: TranscriptEntry[] = [];
      for (let round = 0; round < MAX_ROUNDS && revealed.length === 0; round++) {
        const keys = keysToFetch(paging);
        const pages = await Promise.all(keys.map(async (k) => [k, await readPage(k, (paging as Paging)[k]?.before ?? 0)] as const));
        for (const [k, p] of pages) paging = addPage(paging, k, p.entries, p.nextBefore);
        const r = reveal(paging);
        paging = r.paging;
        revealed = r.revealed;
        if (keys.length === 0) break;
      }
      chatDispatch(qc, teamId, [{ type: 'older', paging, revealed }]);
    },
  });
  const { isPending: busy, mutate } = older;
  const load = useCallback(() => {
    const s = qc.getQueryData<ChatState>(teamChatKeys.transcript(teamId));
    if (!s || busy) return;
    mutate(s);
  }, [busy, mutate, qc, teamId]);
  return { load, busy, error: older.error ? messageOf(older.error) : null };
}
