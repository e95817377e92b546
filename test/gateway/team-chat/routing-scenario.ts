// Issue 17 #2 and #4 on the real gateway: who answers a message (an explicit
// roster target, a leading @mention, else the lead), the lead handing the
// floor to a member by starting a line with `@<name>` (speaker_selected, one
// chain: same trace, the member's span a child of the lead's), and the
// per-message turn bound stopping a ping-pong of hand-overs (turn_bound_hit,
// a meta entry, no run past the bound). Not a test file.
import assert from 'node:assert/strict';
import { chat, executions, openChatStream, teamKey, untilEvent, type ChatStream } from '../../helpers/team-chat-api.ts';
import { waitFor } from '../../helpers/wait.ts';
import { replyRow, userRow, type TeamChatContext } from './context.ts';

interface Case {
  body: { message: string; targetAgentId?: string };
  /** Whose session the message lands in and who answers. */
  to: string;
}

async function expectAnswer(stream: ChatStream, teamId: string, c: Case): Promise<void> {
  const text = c.body.message.trim();
  await userRow(stream, text, teamKey(c.to, teamId));
  await replyRow(stream, c.to, teamId, `the echo of "${text}"`, (t) => t === `ECHO: ${text}`);
}

export async function targetingScenario(ctx: TeamChatContext): Promise<void> {
  const { base, a, b } = ctx;
  const lead = a.lead.id;
  const member = a.member.id;
  const cases: Case[] = [
    { body: { message: 'to the member by id', targetAgentId: member }, to: member },
    { body: { message: `@${a.member.name} by a leading mention` }, to: member },
    { body: { message: `@${a.member.name.toLowerCase()}` }, to: member },
    { body: { message: `@${a.member.name}by no space goes to the lead` }, to: lead },
    { body: { message: '@Nobody is not on the roster' }, to: lead },
    { body: { message: `a mention later, @${a.member.name}, is ignored` }, to: lead },
    { body: { message: 'an off-roster target goes to the lead', targetAgentId: b.member.id }, to: lead },
    // 10,000 characters in few words (the fake streams word by word): delivered whole, answered whole.
    { body: { message: `long ${'x'.repeat(9_995)}` }, to: lead },
  ];
  const stream = await openChatStream(base, a.id);
  try {
    for (const c of cases) await chat(base, a.id, c.body);
    for (const c of cases) await expectAnswer(stream, a.id, c);
    assert.ok(ctx.gw.model.prompts.includes(`long ${'x'.repeat(9_995)}`), 'the model got the 10,000-character message whole');
  } finally {
    await stream.close();
  }
}

export async function handoverScenario(ctx: TeamChatContext): Promise<void> {
  const { base, a, home } = ctx;
  const message = `plan the launch\n@${a.member.name} take the first step`;
  const stream = await openChatStream(base, a.id);
  try {
    await chat(base, a.id, { message });
    const leadReply = await replyRow(stream, a.lead.id, a.id, 'the echo', (t) => t === `ECHO: ${message}`);
    // The member is delivered the lead's reply and answers it.
    const memberReply = await replyRow(stream, a.member.id, a.id, 'the answer to the hand-over', (t) => t.startsWith('ECHO: ') && t.endsWith(leadReply.text));
    const selected = await untilEvent(base, 'speaker_selected for the hand-over', { teamId: a.id, kinds: 'speaker_selected' }, (e) => e.data.to === a.member.id && e.data.from === a.lead.id && typeof e.data.reason === 'string' && e.data.reason === `mentioned by ${a.lead.name}`);
    assert.equal(selected.teamId, a.id);

    const runs = executions(home, a.id);
    const first = runs.find((r) => r.run_id === leadReply.runId);
    const second = runs.find((r) => r.run_id === memberReply.runId);
    assert.ok(first && second, JSON.stringify(runs.slice(-3)));
    assert.equal(second.trigger, 'handover');
    assert.equal(second.chain_id, first.chain_id, 'one chain');
    assert.equal(second.trace_id, first.trace_id, 'one trace');
    assert.equal(second.parent_span_id, first.span_id, 'the member\'s span is a child of the lead\'s');
    assert.equal(memberReply.trigger, 'handover');
  } finally {
    await stream.close();
  }
}

export async function turnBoundScenario(ctx: TeamChatContext): Promise<void> {
  const { base, a, home, turnBound } = ctx;
  // Each reply echoes both lines: the lead hands to the member, the member back to the lead, and so on.
  const message = `ping pong\n@${a.member.name} pong\n@${a.lead.name} ping`;
  const entryId = `user-bound-${Date.now()}`;
  const stream = await openChatStream(base, a.id);
  try {
    await chat(base, a.id, { message, entryId });
    const hit = await untilEvent(base, 'turn_bound_hit', { teamId: a.id, kinds: 'turn_bound_hit' }, (e) => e.data.chainId === entryId);
    assert.equal(hit.data.bound, turnBound);
    // Runs alternate lead, member, lead, ...: the one past the bound is dropped.
    const dropped = turnBound % 2 === 0 ? a.lead.id : a.member.id;
    assert.deepEqual(hit.data.dropped, { agentId: dropped, trigger: 'handover' });
    const meta = await stream.row('the turn-bound meta entry', (e) => e.role === 'system' && e.kind === 'meta' && e.sessionKey === teamKey(a.lead.id, a.id) && /turn|bound/i.test(e.text));
    assert.equal(meta.runId, null);
    const runs = await waitFor(() => {
      const rows = executions(home, a.id).filter((r) => r.chain_id === entryId);
      return rows.every((r) => r.status !== 'running') ? rows : null;
    }, { what: 'the chain\'s runs to end' });
    assert.equal(runs.length, turnBound, `exactly ${turnBound} runs: ${JSON.stringify(runs.map((r) => [r.agent_id, r.trigger, r.status]))}`);
    assert.deepEqual(runs.map((r) => r.agent_id), Array.from({ length: turnBound }, (_, i) => (i % 2 === 0 ? a.lead.id : a.member.id)));
    assert.deepEqual(runs.map((r) => r.trigger), ['user', ...Array.from({ length: turnBound - 1 }, () => 'handover')]);
    assert.ok(runs.every((r) => r.status === 'completed'));
  } finally {
    await stream.close();
  }
}
