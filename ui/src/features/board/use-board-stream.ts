// Live board for one team: the team-chat stream's `event: board` frames patch
// the cached boards (applyBoardFrame, also used by the team chat's own
// stream); after a reconnect the board is reloaded, since named frames are
// not replayed. The stream is opened with a cursor past every row (`since`),
// so it carries no transcript rows, only the named frames (board, status,
// delta, room) of which the board reads `board`. The cache is written through
// the board's key factory (api/board.ts).
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { boardKeys } from '../../api/board.ts';
import { useEventStream } from '../../api/event-stream.ts';
import { teamStreamUrl } from '../../api/team-chat.ts';
import type { Task } from '../../api/types.ts';
import { applyFrameToTasks, parseBoardFrame } from './board-frame.ts';

/** A cursor no chat row id reaches: the stream skips the transcript. */
export const PAST_EVERY_ROW = Number.MAX_SAFE_INTEGER;

/**
 * Applies an `event: board` frame (its JSON text or the parsed value) of team
 * `teamId` to the cached boards: the team's and the all-teams list. When the
 * frame cannot be rendered on its own, those boards are reloaded instead. The
 * task's open detail and comments are always reloaded.
 */
export function applyBoardFrame(queryClient: QueryClient, teamId: string, frame: unknown): void {
  const f = parseBoardFrame(frame);
  if (f === null) {
    void queryClient.invalidateQueries({ queryKey: boardKeys.list(teamId) });
    void queryClient.invalidateQueries({ queryKey: boardKeys.list(null) });
    return;
  }
  for (const key of [boardKeys.list(teamId), boardKeys.list(null)]) {
    const cur = queryClient.getQueryData<Task[]>(key);
    if (cur === undefined) continue;
    const next = applyFrameToTasks(cur, f, teamId);
    if (next === null) void queryClient.invalidateQueries({ queryKey: key });
    else queryClient.setQueryData<Task[]>(key, next);
  }
  void queryClient.invalidateQueries({ queryKey: boardKeys.task(f.id) });
}

export function useBoardStream(teamId: string | null): void {
  const qc = useQueryClient();
  const url = teamId === null ? null : teamStreamUrl(teamId, PAST_EVERY_ROW);
  useEventStream(url, {
    events: {
      board: (data) => {
        if (teamId !== null) applyBoardFrame(qc, teamId, data);
      },
    },
    onReopen: () => void qc.invalidateQueries({ queryKey: boardKeys.list(teamId) }),
  });
}
