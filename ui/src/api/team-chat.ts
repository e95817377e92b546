// A team's chat (docs/api.md "Team chat"): the live stream's address (GET
// /api/teams/:id/chat/stream, read by pages/team-chat/use-chat.ts and by the
// team board, features/board/use-board-stream.ts), a message (POST .../chat,
// idempotent per entryId), Stop (POST .../chat/stop) and the history pages
// "Load earlier" reads (GET /api/chat-history). The transcript, the live
// bubbles and the agents' statuses are one cache entry per team,
// teamChatKeys.transcript(id), written only by the stream and the sends
// through the chat reducer (features/chat); nothing here fetches it.
import { useMutation } from '@tanstack/react-query';
import { api } from './client.ts';
import type { HistoryPage } from './types.ts';

const enc = encodeURIComponent;

export const teamChatKeys = {
  all: ['team-chat'] as const,
  transcript: (teamId: string) => ['team-chat', 'transcript', teamId] as const,
};

/** The team's stream, resumed after row `since` (0: from the start). */
export function teamStreamUrl(teamId: string, since: number): string {
  return `/api/teams/${enc(teamId)}/chat/stream${since > 0 ? `?since=${since}` : ''}`;
}

export interface SendInput {
  entryId: string;
  text: string;
  targetAgentId: string | null;
}

/**
 * Sends a message. The page applies each send's outcome to the transcript
 * through `mutateAsync` (every send settles, however many run at once, and
 * whether or not the page is still shown).
 */
export function useSendTeamMessage(teamId: string) {
  return useMutation({
    mutationFn: ({ entryId, text, targetAgentId }: SendInput) =>
      api(`/api/teams/${enc(teamId)}/chat`, { method: 'POST', body: { message: text, entryId, ...(targetAgentId ? { targetAgentId } : {}) } }),
  });
}

/** Stops every running agent of the team; `onMutate` marks the stop in the transcript as it is asked. */
export function useStopTeamChat(teamId: string, { onMutate }: { onMutate?: () => void } = {}) {
  return useMutation({
    mutationFn: () => api(`/api/teams/${enc(teamId)}/chat/stop`, { method: 'POST' }),
    onMutate,
  });
}

/** One page of a session key's history before row `before`, oldest first (the route allows 1-500 rows). */
export function fetchHistoryPage(sessionKey: string, before: number, limit: number): Promise<HistoryPage> {
  const q = new URLSearchParams({ sessionKey, before: String(before), limit: String(limit) });
  return api<HistoryPage>(`/api/chat-history?${q}`);
}
