// What the team-chat scenarios share (issue 17): the running svc and the real
// gateway of the test file, the two teams it made, and small readers of a
// chat stream that name what a step waits for. Not a test file.
import assert from 'node:assert/strict';
import type { ChatFrame, ChatStream, Entry } from '../../helpers/team-chat-api.ts';
import { teamKey, type TeamMember } from '../../helpers/team-chat-api.ts';
import type { TeamChatGateway } from '../../helpers/team-chat-gateway.ts';

export interface Team {
  id: string;
  lead: TeamMember;
  member: TeamMember;
}

export interface TeamChatContext {
  /** svc's base URL. */
  base: string;
  /** svc's SVC_HOME (its database is `<home>/svc.db`). */
  home: string;
  gw: TeamChatGateway;
  /** Ada (lead) and Bob. */
  a: Team;
  /** Cy (lead) and Dee. */
  b: Team;
  /** SVC_TEAM_CHAT_TURN_BOUND as svc was started with. */
  turnBound: number;
}

/** The session keys a team's stream carries: each roster agent's team key and the team's fallback key. */
export const keysOf = (team: Team): string[] => [teamKey(team.lead.id, team.id), teamKey(team.member.id, team.id), `team:${team.id}`];

/** The user entry of a message, by its text, under the session key it must be persisted under. */
export function userRow(stream: ChatStream, text: string, sessionKey: string): Promise<Entry> {
  return stream.row(`the user entry "${text.slice(0, 60)}"`, (e) => e.role === 'user' && e.text === text).then((e) => {
    assert.equal(e.sessionKey, sessionKey, `"${text.slice(0, 60)}" is persisted under ${sessionKey}`);
    return e;
  });
}

/** The committed reply of an agent (role assistant, a run id) whose text passes `pred`. */
export function replyRow(stream: ChatStream, agentId: string, teamId: string, what: string, pred: (text: string) => boolean): Promise<Entry> {
  const key = teamKey(agentId, teamId);
  return stream.row(`${agentId}'s reply: ${what}`, (e) => e.role === 'assistant' && e.sessionKey === key && e.runId !== null && pred(e.text));
}

/**
 * Waits for a status frame of `agentId` that follows the last delta of
 * `runId`: named frames keep their order among themselves, so this is the
 * status the run's end sent, not the snapshot's or an earlier run's. (A
 * committed row can reach the stream a flush after a status sent later.)
 */
export async function statusAfterRun(stream: ChatStream, agentId: string, status: string, runId: string): Promise<void> {
  await stream.untilFrames(`status ${status} of ${agentId} after the deltas of run ${runId}`, (fs) => {
    const at = fs.findLastIndex((f) => f.type === 'delta' && f.runId === runId);
    return at >= 0 && fs.some((f, i) => i > at && f.type === 'status' && f.agentId === agentId && f.status === status);
  });
}

/** The index of the first frame passing `pred` (-1 when none). */
export const indexOf = (frames: readonly ChatFrame[], pred: (f: ChatFrame) => boolean): number => frames.findIndex(pred);

export const isDelta = (f: ChatFrame): f is Extract<ChatFrame, { type: 'delta' }> => f.type === 'delta';
export const isStatus = (f: ChatFrame): f is Extract<ChatFrame, { type: 'status' }> => f.type === 'status';
export const isBoard = (f: ChatFrame): f is Extract<ChatFrame, { type: 'board' }> => f.type === 'board';
export const isRoom = (f: ChatFrame): f is Extract<ChatFrame, { type: 'room' }> => f.type === 'room';
