// What the team chat's routes read in this thread (the worker writes): the
// roster and lead that fix a stream's session-key set, the agents' run
// statuses for the stream's snapshot, committed transcript rows past a
// cursor, and the peer-chat room. Reads only; every write goes through the
// team-chat host.
import { createChatReads, type ChatRow } from '../../shared/db/chat-messages.ts';
import type { Db } from '../../shared/db/open.ts';
import type { Domain } from '../../shared/domain.ts';
import { createTeamChatPostReads, roomOf, type TeamChatPost } from '../../shared/team-chat/room/posts.ts';
import { teamFallbackSessionKey, teamSessionKey, type AgentRunStatus, type RoomPost, type RoomQuery } from '../../shared/team-chat/schemas.ts';
import { createExecutions } from '../../shared/team-chat/runs/executions.ts';
import { subagentKeyAgent } from '../../shared/team-chat/spawns/spawn-keys.ts';
import { addressable, loadRoster } from '../../shared/team-chat/routing/answerer.ts';

export interface TeamChatReads {
  /** Ids of the live (not archived) agents whose team is `teamId`, oldest first. */
  members(teamId: string): string[];
  /** The stream's session-key set: each member's and the lead's team key, the team's fallback key, and its native children's keys (issue 23). */
  sessionKeys(teamId: string): string[];
  /** A live row of one of the team's native-delegation children: a sub-agent key whose entry names the team (issue 23). */
  isChildRow(teamId: string, row: Pick<ChatRow, 'sessionKey' | 'entry'>): boolean;
  /** One status per member and the lead: `running` and `error` as stored, anything else `idle`. */
  statuses(teamId: string): Array<{ agentId: string; status: AgentRunStatus }>;
  /** Committed rows of `keys` with an id above `cursor` and at most `upTo`, ascending, at most `limit`. */
  rowsAfter(keys: readonly string[], cursor: number, upTo: number, limit: number): ChatRow[];
  maxChatId(): number;
  /** A cursor read of the team's room. */
  room(q: RoomQuery): RoomPost[];
  post(id: number): RoomPost | null;
}

export function createTeamChatReads(db: Db, domain: Pick<Domain, 'teams' | 'agents' | 'lead'>): TeamChatReads {
  const chat = createChatReads(db);
  const executions = createExecutions(db);
  const posts = createTeamChatPostReads(db);

  const teamIdOfRoom = (room: string) => room.slice(room.indexOf(':') + 1);
  const toPost = (r: TeamChatPost): RoomPost => ({
    id: r.id,
    teamId: teamIdOfRoom(r.room),
    authorAgentId: r.authorAgentId,
    text: r.text,
    createdAt: r.createdAt,
    exchangeId: r.exchangeId,
  });

  /** The members, then the team's effective lead when it is not one of them (the host's own rule, target.ts). */
  const speakers = (teamId: string) => addressable(loadRoster(domain, teamId)).map((a) => a.id);
  const statusOf = (agentId: string): AgentRunStatus => {
    const s = domain.agents.get(agentId)?.status;
    return s === 'running' || s === 'error' ? s : 'idle';
  };

  return {
    members: (teamId) => domain.agents.list({ teamId }).map((a) => a.id),
    sessionKeys: (teamId) => [
      ...speakers(teamId).map((id) => teamSessionKey(id, teamId)),
      teamFallbackSessionKey(teamId),
      ...executions.spawnSessionKeys(teamId),
    ],
    isChildRow(teamId, row) {
      if (subagentKeyAgent(row.sessionKey) === null) return false;
      try {
        return (JSON.parse(row.entry) as { teamId?: unknown }).teamId === teamId;
      } catch {
        // Rows are written as JSON by the entry writer; one that is not names no team.
        return false;
      }
    },
    statuses: (teamId) => speakers(teamId).map((agentId) => ({ agentId, status: statusOf(agentId) })),
    rowsAfter: (keys, cursor, upTo, limit) => chat.after(cursor, upTo, limit, keys),
    maxChatId: () => chat.maxId(),
    room: (q) => posts.after(roomOf(q.teamId), q.since, q.limit).map(toPost),
    post: (id) => {
      const r = posts.byId(id);
      return r ? toPost(r) : null;
    },
  };
}
