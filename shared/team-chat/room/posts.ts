// The team chat room's posts (migration 9), the peer-chat room's store: what
// the teamchat MCP server writes and reads. A room is `team:<teamId>`; a
// post's id is the cursor a subscriber reads past. A post by a bound session
// appends its `team_chat_post` event in the same transaction, so there is
// never a post without its event or an event without its post. A post written
// by a peer-chat exchange (shared/team-chat/room/exchange.ts) names its exchange
// in the side table team_chat_exchange_posts (migration 12), written in the
// same transaction; a post from the MCP server has none.
import type { Db } from '../../db/open.ts';
import type { Tx } from '../../db/tx.ts';
import type { EventLog } from '../../events/event-log.ts';

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
  /** The peer-chat exchange that wrote the post; null for a teamchat MCP post. */
  exchangeId: string | null;
}

export interface NewPost {
  teamId: string;
  authorAgentId: string;
  text: string;
  /** Append a `team_chat_post` event (bound sessions). */
  emitEvent: boolean;
  exchangeId?: string | null;
}

/** The room's reads (the team chat routes read in the supervisor; the writers post elsewhere). */
export interface TeamChatPostReads {
  /** Posts of `room` with an id above `cursor`, oldest first, at most `limit`. */
  after(room: string, cursor: number, limit: number): TeamChatPost[];
  byId(id: number): TeamChatPost | null;
}

export interface TeamChatPosts extends TeamChatPostReads {
  post(input: NewPost): TeamChatPost;
}

export const roomOf = (teamId: string): string => `team:${teamId}`;

export const previewOf = (text: string): string =>
  text.length <= PREVIEW_MAX ? text : `${text.slice(0, PREVIEW_MAX - 1)}…`;

const POST_SELECT_SQL = `SELECT p.id, p.room, p.author_agent_id AS authorAgentId, p.text, p.created_at AS createdAt, x.exchange_id AS exchangeId
  FROM team_chat_posts p LEFT JOIN team_chat_exchange_posts x ON x.post_id = p.id`;

export function createTeamChatPostReads(db: Db): TeamChatPostReads {
  const afterStmt = db.prepare(`${POST_SELECT_SQL} WHERE p.room = ? AND p.id > ? ORDER BY p.id LIMIT ?`);
  const byIdStmt = db.prepare(`${POST_SELECT_SQL} WHERE p.id = ?`);
  return {
    after: (room, cursor, limit) => afterStmt.all(room, cursor, limit) as TeamChatPost[],
    byId: (id) => (byIdStmt.get(id) as TeamChatPost | undefined) ?? null,
  };
}

export function createTeamChatPosts(deps: { db: Db; tx: Tx; eventLog: EventLog; now?: () => number }): TeamChatPosts {
  const { db, tx, eventLog, now = Date.now } = deps;
  const insert = db.prepare('INSERT INTO team_chat_posts (room, author_agent_id, text, created_at) VALUES (?, ?, ?, ?)');
  const insertExchange = db.prepare('INSERT INTO team_chat_exchange_posts (post_id, exchange_id) VALUES (?, ?)');
  return {
    ...createTeamChatPostReads(db),
    post({ teamId, authorAgentId, text, emitEvent, exchangeId = null }) {
      return tx.run(() => {
        const room = roomOf(teamId);
        const createdAt = now();
        const id = Number(insert.run(room, authorAgentId, text, createdAt).lastInsertRowid);
        if (exchangeId) insertExchange.run(id, exchangeId);
        if (emitEvent) {
          eventLog.append({
            kind: 'team_chat_post',
            teamId,
            agentId: authorAgentId,
            data: { postId: id, room, preview: previewOf(text), length: text.length, ...(exchangeId ? { exchangeId } : {}) },
          });
        }
        return { id, room, authorAgentId, text, createdAt, exchangeId };
      });
    },
  };
}
