// Live board for one team: the team-chat stream's `event: board` frames patch
// the cached board (applyBoardFrame); after a reconnect the board is reloaded,
// since named frames are not replayed. The stream is opened with a cursor
// past every row (`since`), so it carries no transcript rows, only the named
// frames (board, status, delta, room) of which the board reads `board`.
import { useQueryClient } from '@tanstack/react-query';
import { useEventStream } from '../../api/event-stream.ts';
import { applyBoardFrame, boardKey } from './useBoard.ts';

/** A cursor no chat row id reaches: the stream skips the transcript. */
export const PAST_EVERY_ROW = Number.MAX_SAFE_INTEGER;

export function useBoardStream(teamId: string | null): void {
  const qc = useQueryClient();
  const url = teamId === null ? null : `/api/teams/${encodeURIComponent(teamId)}/chat/stream?since=${PAST_EVERY_ROW}`;
  useEventStream(url, {
    events: {
      board: (data) => {
        if (teamId !== null) applyBoardFrame(qc, teamId, data);
      },
    },
    onReopen: () => void qc.invalidateQueries({ queryKey: boardKey(teamId) }),
  });
}
