// What becomes a tier-2 frame of a team's chat stream besides the host's own
// deltas and statuses (docs/architecture.md, "Threads"): board rows of a team
// (whoever wrote them: a route, an MCP server, the team-chat host) become
// `event: board` frames and a `boardChanged` notice for the host; room posts
// become `event: room` frames. The frames themselves are fanned out by
// http/team-stream-hub.ts, which implements TeamFrameHub (a service does not
// import the front door).
import type { SettingsTable } from '../../shared/db/settings-table.ts';
import type { Board } from '../../shared/board/board.ts';
import { BOARD_KINDS } from '../../shared/events/kinds.ts';
import type { EventRow } from '../../shared/events/types.ts';
import type { Logger } from '../../shared/log.ts';
import { isServerOrchestrated } from '../../shared/teams/orchestration.ts';
import type { TeamStreamFrameName, TeamStreamFramePayloads } from '../../shared/team-chat/stream-frames.ts';
import type { StreamHub } from './stream-hub.ts';
import type { TeamChatReads } from './team-chat-reads.ts';

/** The payloads of the stream's named frames: one schema each (shared/team-chat/stream-frames.ts). */
export type TeamFramePayloads = TeamStreamFramePayloads;
export type TeamFrameName = TeamStreamFrameName;

/** The per-team tier-2 frames (http/team-stream-hub.ts implements it). */
export interface TeamFrameHub {
  /** Whether any stream of the team is open (a frame nobody takes is not built). */
  has(teamId: string): boolean;
  publish<E extends TeamFrameName>(teamId: string, event: E, payload: TeamFramePayloads[E]): void;
  /** A stream's writer (false: closed, then dropped); returns the unsubscribe. */
  subscribe(teamId: string, sink: (chunk: string) => boolean): () => void;
}

export interface BoardAndRoomDeps {
  events: StreamHub<EventRow>;
  frames: TeamFrameHub;
  board: Pick<Board, 'get'>;
  reads: Pick<TeamChatReads, 'post'>;
  /** The team-scoped settings (the chat gate). */
  settingsTable: Pick<SettingsTable, 'get'>;
  /** Tells the host a task of an orchestrated team changed. */
  boardChanged: (teamId: string, taskId: string) => void;
  log: Logger;
}

/**
 * Board rows of a team -> `event: board` frames and a `boardChanged` for the
 * host; `team_chat_post` rows -> `event: room` frames. Rows are queued by the
 * hub's listener and handled on a later turn (a listener must not block).
 */
export function listenForBoardAndRoom(deps: BoardAndRoomDeps): () => void {
  const { frames, reads, boardChanged, log } = deps;
  const closedGate = (teamId: string) => !isServerOrchestrated(deps.settingsTable, teamId);
  let queue: EventRow[] = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    const rows = queue;
    queue = [];
    try {
      handle(rows);
    } catch (err) {
      // Frames are ephemeral (a client reloads the board) and a missed notice waits for the team's next change.
      log.error({ err }, 'team chat board/room frames failed for a batch of rows');
    }
  };
  const handle = (rows: readonly EventRow[]) => {
    const seen = new Set<string>();
    for (const row of rows) {
      const teamId = row.teamId as string;
      if (row.kind === 'team_chat_post') {
        if (!frames.has(teamId)) continue;
        const postId = postIdOf(row);
        const post = postId === null ? null : reads.post(postId);
        if (post) frames.publish(teamId, 'room', { id: post.id, authorAgentId: post.authorAgentId, text: post.text, createdAt: post.createdAt, exchangeId: post.exchangeId });
        continue;
      }
      const taskId = row.taskId as string;
      // One frame and one notice per task per batch: the read gives its latest state.
      const key = `${teamId}\u0000${taskId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // The frame first: an in-thread host may claim the task at once, and that change has a frame of its own.
      if (frames.has(teamId)) {
        const t = deps.board.get(taskId);
        frames.publish(
          teamId,
          'board',
          t
            ? { id: t.id, title: t.title, status: t.status, assigneeAgentId: t.assigneeAgentId, parentTaskId: t.parentTaskId, createdAt: t.createdAt, updatedAt: t.updatedAt }
            : { id: taskId },
        );
      }
      // A team whose chat gate is closed is not orchestrated: its board is the user's alone.
      if (!closedGate(teamId)) boardChanged(teamId, taskId);
    }
  };
  return deps.events.listen(
    (rows) => {
      for (const row of rows) {
        if (row.teamId === null) continue;
        if ((BOARD_KINDS.has(row.kind) && row.taskId !== null) || row.kind === 'team_chat_post') queue.push(row);
      }
      if (queue.length > 0 && !scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    (err) => log.error({ err }, 'team chat board/room listener failed'),
  );
}

function postIdOf(row: EventRow): number | null {
  try {
    const data = JSON.parse(row.data) as { postId?: unknown };
    return typeof data.postId === 'number' ? data.postId : null;
  } catch {
    // A row another process wrote with unreadable data: no room frame, the room read still shows the post.
    return null;
  }
}
