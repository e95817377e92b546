// The team chat room's posts (migration 9): what the teamchat MCP server
// writes and reads. A room is `team:<teamId>`; a post's id is the cursor a
// subscriber reads past. A post by a bound session appends its
// `team_chat_post` event in the same transaction, so there is never a post
// without its event or an event without its post.
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import type { EventLog } from '../events/event-log.ts';

export const POST_TEXT_MAX = 8000;
/** Characters of a post's text copied into its event's data. */
export const PREVIEW_MAX = 200;
export const SUBSCRIBE_LIMIT_MAX = 500;
export const SUBSCRIBE_LIMIT_DEFAULT = 100;

export interface TeamChatPost {
  id: number;
  room: string;
  authorAgentId: string;
  text: string;
  createdAt: number;
}

export interface NewPost {
  teamId: string;
  authorAgentId: string;
  text: string;
  /** Append a `team_chat_post` event (bound sessions). */
  emitEvent: boolean;
}

export interface TeamChatPosts {
  post(input: NewPost): TeamChatPost;
  /** Posts of `room` with an id above `cursor`, oldest first, at most `limit`. */
  after(room: string, cursor: number, limit: number): TeamChatPost[];
}

export const roomOf = (teamId: string): string => `team:${teamId}`;

export const previewOf = (text: string): string =>
  text.length <= PREVIEW_MAX ? text : `${text.slice(0, PREVIEW_MAX - 1)}…`;

export function createTeamChatPosts(deps: { db: Db; tx: Tx; eventLog: EventLog; now?: () => number }): TeamChatPosts {
  const { db, tx, eventLog, now = Date.now } = deps;
  const insert = db.prepare('INSERT INTO team_chat_posts (room, author_agent_id, text, created_at) VALUES (?, ?, ?, ?)');
  const afterStmt = db.prepare(
    `SELECT id, room, author_agent_id AS authorAgentId, text, created_at AS createdAt
     FROM team_chat_posts WHERE room = ? AND id > ? ORDER BY id LIMIT ?`,
  );
  return {
    post({ teamId, authorAgentId, text, emitEvent }) {
      return tx.run(() => {
        const room = roomOf(teamId);
        const createdAt = now();
        const id = Number(insert.run(room, authorAgentId, text, createdAt).lastInsertRowid);
        if (emitEvent) {
          eventLog.append({
            kind: 'team_chat_post',
            teamId,
            agentId: authorAgentId,
            data: { postId: id, room, preview: previewOf(text), length: text.length },
          });
        }
        return { id, room, authorAgentId, text, createdAt };
      });
    },
    after: (room, cursor, limit) => afterStmt.all(room, cursor, limit) as TeamChatPost[],
  };
}
