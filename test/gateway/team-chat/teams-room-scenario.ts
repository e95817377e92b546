// Issue 17 #6 and #7 on the real gateway: two teams chatting at the same
// time (both runs held mid-stream at once by the fake model) each see only
// their own rows, deltas and statuses; and the peer-chat room: an exchange's
// turns become room posts (GET /api/team-chat, `event: room`, one
// team_chat_post event each, an `exchange` run each, no transcript entry),
// and a post the member's model makes through svc's teamchat MCP server (its
// gateway snippet minted for the member and the team) lands in the same
// room and stream. Not a test file.
import assert from 'node:assert/strict';
import { call, chat, events, executions, openChatStream, teamKey, type ChatFrame } from '../../helpers/team-chat-api.ts';
import { waitFor } from '../../helpers/wait.ts';
import { keysOf, isDelta, isRoom, isStatus, replyRow, type Team, type TeamChatContext } from './context.ts';

/** Every frame of `frames` belongs to `team`: rows and deltas of its keys, statuses of its agents, and none mentions `foreign`. */
function assertOnlyOwn(frames: readonly ChatFrame[], team: Team, foreign: string): void {
  const keys = new Set(keysOf(team));
  const agents = new Set([team.lead.id, team.member.id]);
  for (const f of frames) {
    if (f.type === 'row') assert.ok(keys.has(f.entry.sessionKey), `row of another team: ${JSON.stringify(f.entry)}`);
    if (isDelta(f)) assert.ok(keys.has(f.sessionKey), `delta of another team: ${JSON.stringify(f)}`);
    if (isStatus(f)) assert.ok(agents.has(f.agentId), `status of another team's agent: ${JSON.stringify(f)}`);
    assert.ok(!JSON.stringify(f).includes(foreign), `a frame carries the other team's text: ${JSON.stringify(f)}`);
  }
}

export async function twoTeamsScenario(ctx: TeamChatContext): Promise<void> {
  const { base, a, b, gw } = ctx;
  const [sa, sb] = [await openChatStream(base, a.id), await openChatStream(base, b.id)];
  try {
    const [ta, tb] = ['SLOW: alpha team speaking now', 'SLOW: beta team speaking now'];
    await Promise.all([chat(base, a.id, { message: ta }), chat(base, b.id, { message: tb })]);
    // Both runs are in their model calls at the same time.
    const held = await gw.model.untilHeld(2, 120_000);
    assert.deepEqual(held.map((r) => r.prompt).sort(), [ta, tb]);
    await sa.until('a delta of team A', (f) => isDelta(f) && f.sessionKey === teamKey(a.lead.id, a.id));
    await sb.until('a delta of team B', (f) => isDelta(f) && f.sessionKey === teamKey(b.lead.id, b.id));
    assert.equal(gw.model.release(), 2);
    await replyRow(sa, a.lead.id, a.id, 'team A\'s echo', (t) => t === `ECHO: ${ta}`);
    await replyRow(sb, b.lead.id, b.id, 'team B\'s echo', (t) => t === `ECHO: ${tb}`);
    assertOnlyOwn(sa.frames(), a, 'beta team');
    assertOnlyOwn(sb.frames(), b, 'alpha team');
  } finally {
    gw.model.release();
    await Promise.all([sa.close(), sb.close()]);
  }
}

interface Post {
  id: number;
  teamId: string;
  authorAgentId: string;
  text: string;
  exchangeId: string | null;
}

export async function roomScenario(ctx: TeamChatContext): Promise<void> {
  const { base, a, home } = ctx;
  const stream = await openChatStream(base, a.id);
  try {
    const before = await call<{ posts: Post[]; cursor: number }>(base, 'GET', `/api/team-chat?teamId=${a.id}`);
    assert.equal(before.status, 200, JSON.stringify(before.body));
    const cursor = before.body.cursor;

    const topic = 'the release plan';
    const started = await call<{ ok: boolean; exchangeId: string }>(base, 'POST', '/api/team-chat/exchange', { teamId: a.id, fromAgentId: a.lead.id, toAgentId: a.member.id, topic, turns: 2 });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { exchangeId } = started.body;
    assert.ok(typeof exchangeId === 'string' && exchangeId.length > 0);

    const frames = await stream.untilFrames('two room frames of the exchange', (fs) => fs.filter(isRoom).filter((f) => f.exchangeId === exchangeId).length >= 2);
    const turns = frames.filter(isRoom).filter((f) => f.exchangeId === exchangeId);
    assert.deepEqual(turns.map((f) => f.authorAgentId), [a.lead.id, a.member.id]);
    const opening = `Start a conversation with ${a.member.name} about: ${topic}`;
    assert.equal(turns[0]?.text, `ECHO: ${opening}`);
    assert.ok(turns[1]?.text.startsWith('ECHO: ') && turns[1].text.includes(opening), 'the member answered the lead\'s turn');

    const room = await call<{ posts: Post[]; cursor: number }>(base, 'GET', `/api/team-chat?teamId=${a.id}&since=${cursor}`);
    assert.deepEqual(room.body.posts.map((p) => [p.id, p.teamId, p.authorAgentId, p.text, p.exchangeId]), turns.map((f) => [f.id, a.id, f.authorAgentId, f.text, exchangeId]));
    assert.equal(room.body.cursor, turns[1]?.id);

    const posted = (await events(base, { teamId: a.id, kinds: 'team_chat_post' })).filter((e) => e.agentId === a.lead.id || e.agentId === a.member.id);
    assert.ok(posted.length >= 2, JSON.stringify(posted));
    const runs = await waitFor(() => {
      const rows = executions(home, a.id).filter((r) => r.trigger === 'exchange');
      return rows.length === 2 && rows.every((r) => r.status !== 'running') ? rows : null;
    }, { what: 'the exchange\'s two runs to end' });
    assert.deepEqual(runs.map((r) => [r.agent_id, r.session_key, r.status]), [
      [a.lead.id, `${teamKey(a.lead.id, a.id)}:peer:${exchangeId}`, 'completed'],
      [a.member.id, `${teamKey(a.member.id, a.id)}:peer:${exchangeId}`, 'completed'],
    ]);
    assert.ok(!stream.rows().some((e) => e.text.includes(opening)), 'an exchange writes no transcript entry');

    // The member's model posts through svc's teamchat MCP server.
    const text = 'Bob posts to the room through the gateway';
    await chat(base, a.id, { message: `TOOL: team_chat_post ${JSON.stringify({ text })}`, targetAgentId: a.member.id });
    const frame = await stream.until('the MCP post on the stream', (f) => isRoom(f) && f.text === text);
    assert.ok(isRoom(frame));
    assert.deepEqual([frame.authorAgentId, frame.exchangeId], [a.member.id, null]);
    await replyRow(stream, a.member.id, a.id, 'what the tool said', (t) => t.startsWith('Tool said: ') && t.includes(text));
    const after = await call<{ posts: Post[] }>(base, 'GET', `/api/team-chat?teamId=${a.id}&since=${turns[1]?.id ?? 0}`);
    assert.deepEqual(after.body.posts.map((p) => [p.authorAgentId, p.text, p.exchangeId]), [[a.member.id, text, null]]);
  } finally {
    await stream.close();
  }
}
