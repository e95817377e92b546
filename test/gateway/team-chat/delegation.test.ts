// Issue 23 items 2-4 end to end: native sub-agent delegation on a REAL
// OpenClaw gateway (the kit's fake model), seen and governed by svc. The
// lead's model spawns a child with the gateway's own `sessions_spawn`
// (`TOOL@lead: sessions_spawn {...}`: only the lead's run calls it); svc
// never starts the child or the announce run that brings the result back,
// it follows them on its operator connection. One gateway and one svc for
// the file; the tests run in order, each leaving the team idle.
import { routingOffFromTheStart } from '../../helpers/seed-settings.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, chat, createTeam, events, executions, openChatStream, teamKey, untilEvent, type ChatFrame, type ChatStream, type Entry, type ExecutionRow } from '../../helpers/team-chat-api.ts';
import { allowSpawns, startTeamChatGateway, type TeamChatGateway } from '../../helpers/team-chat-gateway.ts';
import { startServer, type RunningServer } from '../../helpers/server.ts';
import { waitFor } from '../../helpers/wait.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const WAIT_MS = 180_000;

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let teamId = '';
let lead = '';
let kids: string[] = [];
let outsider = '';

before(async () => {
  gw = await startTeamChatGateway('svc-delegation-e2e-');
  await gw.start();
  // Each run's cost recorded once at its end (the per-run cost records below); a routed child is budget.test's.
  routingOffFromTheStart(gw.home);
  svc = await startServer({ home: gw.home, env: { ...gw.env, SVC_TEAM_CHAT_TURN_BOUND: '8' }, timeoutMs: 120_000 });
  const ids = await gw.createAgents(['Lead', 'Kid', 'Sib', 'Tri', 'Outsider']);
  [lead, outsider] = [ids[0] as string, ids[4] as string];
  kids = ids.slice(1, 4);
  teamId = await createTeam(svc.base, 'Team Native', [{ id: lead, name: 'Lead' }, ...kids.map((id, i) => ({ id, name: ['Kid', 'Sib', 'Tri'][i] as string }))], lead);
  await allowSpawns(gw, lead, kids);
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gw?.close();
});

const base = () => (svc as RunningServer).base;
const leadKey = () => teamKey(lead, teamId);
const spawnPrompt = (agentId: string, task: string, label: string) => `TOOL@${lead}: sessions_spawn ${JSON.stringify({ task, agentId, label })}`;
const isDelta = (f: ChatFrame): f is Extract<ChatFrame, { type: 'delta' }> => f.type === 'delta';

function rowsOf(runId: string): ExecutionRow[] {
  return executions((svc as RunningServer).home, teamId).filter((r) => r.run_id === runId);
}

async function handOver(stream: ChatStream, label: string): Promise<Entry> {
  return stream.row(`the hand-over of “${label}”`, (e) => e.trigger === 'spawn' && e.kind === 'meta' && e.label === label && typeof e.childSessionKey === 'string');
}

void test('Delegation (issue 23, item 4): a spawn outside the roster is refused by the gateway and shown as such: a note under the lead, a tool_result event `forbidden`, no child run', async () => {
  const stream = await openChatStream(base(), teamId);
  try {
    await chat(base(), teamId, { message: spawnPrompt(outsider, 'look elsewhere', 'Off roster') });
    const note = await stream.row('the refused spawn', (e) => e.entryId.startsWith('spawn-refused-'));
    assert.equal(note.sessionKey, leadKey());
    assert.equal(note.agentId, lead);
    assert.equal(note.trigger, 'spawn');
    assert.match(note.text, new RegExp(`^Lead could not hand “Off roster” to ${outsider}: agentId is not allowed for sessions_spawn`));
    const ev = await untilEvent(base(), 'the forbidden tool_result', { teamId }, (e) => e.kind === 'tool_result' && e.data.name === 'sessions_spawn');
    assert.deepEqual([ev.agentId, ev.data.status, ev.data.toAgentId], [lead, 'forbidden', outsider]);
    await stream.row('the lead\'s reply', (e) => e.role === 'assistant' && e.sessionKey === leadKey() && e.text.includes('forbidden'));
    await waitFor(() => executions((svc as RunningServer).home, teamId).every((r) => r.status !== 'running'), { what: 'the lead\'s run to end' });
    assert.equal(executions((svc as RunningServer).home, teamId).filter((r) => r.trigger === 'spawn').length, 0, 'no child run');
  } finally {
    await stream.close();
  }
});

void test('Delegation (issue 23, items 2 and 3): a native spawn is a hand-over: the child streams under its own agent and key, its reply is an entry with its parent run and cost, the announce run is the lead continuing; executions, graph, trace and cost records link and add up without double counts', async () => {
  const [kid] = kids as [string];
  const stream = await openChatStream(base(), teamId);
  try {
    await chat(base(), teamId, { message: spawnPrompt(kid, 'SLOW: dig into the numbers', 'Dig') });
    const hand = await handOver(stream, 'Dig');
    const childKey = hand.childSessionKey as string;
    assert.match(childKey, new RegExp(`^agent:${kid}:subagent:`));
    assert.deepEqual([hand.role, hand.sessionKey, hand.agentId, hand.text], ['system', leadKey(), lead, 'Lead handed “Dig” to Kid']);
    assert.equal(hand.entryId, `spawn-${childKey}`);
    // The child is held until the lead's own run has ended: a child that finishes while its parent's run
    // is still going has its result steered into that run by the gateway, with no announce run.
    const leadRun = await stream.row('the lead\'s own reply', (e) => e.role === 'assistant' && e.sessionKey === leadKey() && e.trigger === 'user' && e.text.includes(childKey));
    await (gw as TeamChatGateway).model.untilHeld(1, WAIT_MS);
    await stream.until('the child running', (f) => f.type === 'status' && f.agentId === kid && f.status === 'running');
    (gw as TeamChatGateway).model.release();

    const child = await stream.row('the child\'s reply', (e) => e.role === 'assistant' && e.sessionKey === childKey, WAIT_MS);
    assert.equal(child.agentId, kid);
    assert.equal(child.trigger, 'spawn');
    assert.match(child.text, /dig into the numbers/);
    assert.equal(child.parentSessionKey, leadKey());
    assert.ok(typeof child.costUsd === 'number' && child.costUsd > 0, `child cost ${child.costUsd}`);
    assert.equal(child.parentRunId, leadRun.runId, 'the child names the lead\'s run');
    assert.equal(hand.runId, leadRun.runId, 'the hand-over sits in the lead\'s run');
    const childRun = child.runId as string;

    // The child's deltas and status on the team stream, under the child's agent and key.
    const frames = await stream.untilFrames('the child\'s status idle', (fs) => fs.some((f) => f.type === 'status' && f.agentId === kid && f.status === 'idle'));
    const deltas = frames.filter(isDelta).filter((f) => f.runId === childRun);
    assert.ok(deltas.length >= 1, 'the child streamed');
    for (const d of deltas) assert.deepEqual([d.sessionKey, (d as { agentId?: string }).agentId], [childKey, kid]);
    assert.ok(frames.some((f) => f.type === 'status' && f.agentId === kid && f.status === 'running'));

    const cont = await stream.row('the lead continuing with the result', (e) => e.trigger === 'announce' && e.role === 'assistant', WAIT_MS);
    assert.equal(cont.sessionKey, leadKey());
    assert.equal(cont.agentId, lead);
    assert.equal(cont.runId, `announce:v1:${childKey}:${childRun}`);
    assert.equal(cont.parentRunId, childRun);
    const announceRun = cont.runId as string;
    const announceRow = await waitFor(() => rowsOf(announceRun).find((r) => r.status === 'completed'), { what: 'the announce run\'s row completed', timeoutMs: WAIT_MS });

    // Executions: the child's row names the lead's, the announce row the child's; one chain, one trace.
    const [leadRow] = rowsOf(leadRun.runId as string);
    const [childRow] = rowsOf(childRun);
    assert.ok(leadRow && childRow);
    const parentOf = (r: ExecutionRow) => (r as ExecutionRow & { parent_execution_id: string | null }).parent_execution_id;
    assert.deepEqual(
      [childRow.trigger, childRow.status, childRow.agent_id, childRow.session_key, parentOf(childRow), childRow.chain_id, childRow.trace_id, childRow.parent_span_id],
      ['spawn', 'completed', kid, childKey, leadRow.id, leadRow.chain_id, leadRow.trace_id, leadRow.span_id],
    );
    assert.deepEqual([announceRow.trigger, announceRow.agent_id, parentOf(announceRow), announceRow.trace_id], ['announce', lead, childRow.id, leadRow.trace_id]);
    assert.equal(parentOf(leadRow), null);

    // speaker_selected (trigger spawn, the label as its reason) and the graph's edge lead -> child.
    const ev = (await events(base(), { teamId })).find((e) => e.kind === 'speaker_selected' && e.data.trigger === 'spawn');
    assert.deepEqual([ev?.data.from, ev?.data.to, ev?.data.reason, ev?.data.childSessionKey], [lead, kid, 'Dig', childKey]);
    const graph = await call<{ agentEdges: Array<{ source: string; target: string; kind: string }> }>(base(), 'GET', `/api/obs/graph?teamId=${teamId}`);
    assert.ok(graph.body.agentEdges.some((e) => e.source === lead && e.target === kid && e.kind === 'delegation'), JSON.stringify(graph.body.agentEdges));

    // The trace of the user's message holds the child's and the announce run's events.
    const trace = await call<{ events: Array<{ agentId: string | null; kind: string }>; metrics: { totalCostUsd: number } }>(base(), 'GET', `/api/obs/traces/${leadRow.trace_id}`);
    assert.equal(trace.status, 200);
    assert.ok(trace.body.events.some((e) => e.agentId === kid && e.kind === 'execution_started'), 'the child is in the trace');
    assert.ok(trace.body.events.filter((e) => e.kind === 'cost').length >= 3, 'lead, child and announce costs in the trace');

    // Cost records: one per run, each priced once, the child's under its own agent and key; the sums agree.
    type CostRow = { runId: string; agentId: string; sessionKey: string; costUsd: number };
    const records = await call<CostRow[] | { records: CostRow[] }>(base(), 'GET', `/api/cost-records?teamId=${teamId}`);
    assert.equal(records.status, 200);
    const list = Array.isArray(records.body) ? records.body : records.body.records;
    for (const run of [leadRun.runId as string, childRun, announceRun]) assert.equal(list.filter((r) => r.runId === run).length, 1, `one cost record for ${run}`);
    const childRec = list.find((r) => r.runId === childRun);
    assert.deepEqual([childRec?.agentId, childRec?.sessionKey], [kid, childKey]);
    assert.ok(Math.abs((childRec?.costUsd ?? 0) - (child.costUsd as number)) < 1e-9);
    const rowsCost = [leadRow, childRow, announceRow].reduce((n, r) => n + (r.cost_usd ?? 0), 0);
    const recCost = list.filter((r) => [leadRun.runId, childRun, announceRun].includes(r.runId)).reduce((n, r) => n + r.costUsd, 0);
    assert.ok(Math.abs(rowsCost - recCost) < 1e-9, `executions ${rowsCost} vs records ${recCost}`);
    const summary = await call<{ byAgent: Array<{ agentId: string; costUsd: number }> }>(base(), 'GET', '/api/cost-records/summary');
    assert.equal(summary.status, 200);
    const kidSum = (summary.body.byAgent ?? []).find((a) => a.agentId === kid);
    assert.ok(kidSum && kidSum.costUsd >= (childRec?.costUsd ?? 0) - 1e-9, JSON.stringify(summary.body).slice(0, 400));

    await waitFor(() => executions((svc as RunningServer).home, teamId).every((r) => r.status !== 'running'), { what: 'nothing running' });
  } finally {
    await stream.close();
  }
});

void test('Delegation (issue 23, item 4): Stop while three children run aborts them at the gateway: their rows cancelled, statuses idle, nothing running', async () => {
  const stream = await openChatStream(base(), teamId);
  try {
    const labels = ['Grind one', 'Grind two', 'Grind three'];
    for (const [i, kid] of kids.entries()) {
      await chat(base(), teamId, { message: spawnPrompt(kid, `SLOW: grinding ${i}`, labels[i] as string) });
      await handOver(stream, labels[i] as string);
    }
    await gw?.model.untilHeld(3, WAIT_MS);
    const childKeys = labels.map((l) => stream.rows().find((e) => e.label === l)?.childSessionKey as string);
    const running = executions((svc as RunningServer).home, teamId).filter((r) => r.trigger === 'spawn' && r.status === 'running');
    assert.deepEqual(running.map((r) => r.session_key).sort(), [...childKeys].sort());

    const stop = await call(base(), 'POST', `/api/teams/${teamId}/chat/stop`, {});
    assert.equal(stop.status, 200);
    const rows = executions((svc as RunningServer).home, teamId);
    for (const key of childKeys) {
      const row = rows.find((r) => r.session_key === key);
      assert.deepEqual([row?.status, row?.error], ['cancelled', 'stopped by the user'], key);
    }
    assert.equal(rows.filter((r) => r.status === 'running').length, 0, 'nothing running');
    // The gateway aborted them: the model streams they held were closed.
    await waitFor(() => (gw as TeamChatGateway).model.held().length === 0, { what: 'the held child streams to close' });
    await stream.untilFrames('every child idle', (fs) => kids.every((k) => fs.some((f) => f.type === 'status' && f.agentId === k && f.status === 'idle')));
    const agents = await call<{ agents: Array<{ id: string; status: string }> }>(base(), 'GET', `/api/agents?teamId=${teamId}`);
    for (const k of kids) assert.equal(agents.body.agents.find((a) => a.id === k)?.status, 'idle', k);
  } finally {
    await stream.close();
  }
});
