// Issue 17 #4 and #5 on the real gateway: the whole delegation loop (the
// lead's model calls create_task on svc's tasks MCP server, attached to the
// gateway with the snippet of GET /api/mcp/config; the member is delivered
// the task, answers; the task is done with the answer as a comment; the lead
// is delivered the result and answers; `event: board` frames follow the
// task), and a stop in the middle of a delegated run (spec "Team chat run
// effects": aborted at the gateway, claimed tasks back to `todo`, `cancelled`
// rows for the aborted run and the queued delegation, 200 again when idle).
// Not a test file.
import assert from 'node:assert/strict';
import { call, chat, executions, openChatStream, untilEvent } from '../../helpers/team-chat-api.ts';
import { waitFor } from '../../helpers/wait.ts';
import { isBoard, isDelta, isStatus, replyRow, type TeamChatContext } from './context.ts';

interface Task {
  id: string;
  title: string;
  status: string;
  assigneeAgentId: string | null;
}

async function task(base: string, id: string): Promise<Task> {
  const r = await call<{ task: Task }>(base, 'GET', `/api/tasks/${id}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.task;
}

export async function delegationScenario(ctx: TeamChatContext): Promise<void> {
  const { base, a, home } = ctx;
  const title = 'Write the summary';
  // No creator named: the lead's tasks session (its minted binding) creates as the lead.
  const args = { title, description: 'Summarise the plan in one line', teamId: a.id, assigneeAgentId: a.member.id };
  const stream = await openChatStream(base, a.id);
  try {
    await chat(base, a.id, { message: `TOOL: create_task ${JSON.stringify(args)}` });
    // The lead's model called svc's tool; the task is on the board and on the stream.
    const created = await stream.until('the task on the stream', (f) => isBoard(f) && f.title === title);
    const taskId = (created as { id: string }).id;
    const toolReply = await replyRow(stream, a.lead.id, a.id, 'what the tool said', (t) => t.startsWith('Tool said: ') && t.includes(taskId));
    assert.ok(ctx.gw.model.requests.some((r) => 'toolCall' in r.reply && r.reply.toolCall.name.endsWith('__create_task')), 'the model called the MCP tool');

    // The member is delivered the task and answers it.
    const delivered = `Task ${taskId} from ${a.lead.name}: ${title}\n\n${args.description}`;
    const memberReply = await replyRow(stream, a.member.id, a.id, 'the answer to the task', (t) => t === `ECHO: ${delivered}`);
    assert.equal(memberReply.trigger, 'delegation');
    assert.equal(memberReply.taskId, taskId);
    await untilEvent(base, 'speaker_selected for the task', { teamId: a.id, kinds: 'speaker_selected' }, (e) => e.data.to === a.member.id && e.data.reason === `task: ${title}`);

    // The lead is delivered the result and answers; the task is done with the answer as its comment.
    const result = `Result of task ${taskId} "${title}" from ${a.member.name}:\n${memberReply.text}`;
    const leadReply = await replyRow(stream, a.lead.id, a.id, 'the answer to the result', (t) => t === `ECHO: ${result}`);
    assert.equal(leadReply.trigger, 'result');
    assert.equal((await task(base, taskId)).status, 'done');
    const comments = await call<{ comments: Array<{ body: string }> }>(base, 'GET', `/api/tasks/${taskId}/comments`);
    assert.ok(comments.body.comments.some((c) => c.body.includes(memberReply.text)), JSON.stringify(comments.body));

    // The board frames followed the task: todo, in_progress, done.
    const statuses = stream.frames().filter(isBoard).filter((f) => f.id === taskId).map((f) => f.status);
    const order = ['todo', 'in_progress', 'done'].map((s) => statuses.indexOf(s));
    assert.ok(order.every((i, k) => i >= 0 && (k === 0 || i > (order[k - 1] as number))), `board statuses ${statuses.join(',')}`);

    // One chain: the member's run and the lead's result run share the lead's trace.
    const runs = executions(home, a.id);
    const byRun = (runId: string | null) => runs.find((r) => r.run_id === runId);
    const [first, second, third] = [byRun(toolReply.runId), byRun(memberReply.runId), byRun(leadReply.runId)];
    assert.ok(first && second && third, JSON.stringify(runs.slice(-3)));
    assert.deepEqual([first.trigger, second.trigger, third.trigger], ['user', 'delegation', 'result']);
    assert.equal(second.task_id, taskId);
    assert.equal(new Set([first.trace_id, second.trace_id, third.trace_id]).size, 1, 'one trace');
    assert.ok([first, second, third].every((r) => r.status === 'completed'));
  } finally {
    await stream.close();
  }
}

export async function stopScenario(ctx: TeamChatContext): Promise<void> {
  const { base, a, home, gw } = ctx;
  const title = 'Long job';
  // The member's model streams its answer to this task slowly: the test stops it mid-run.
  const args = { title, description: 'SLOW: grinding away', teamId: a.id, assigneeAgentId: a.member.id, createdByAgentId: a.lead.id };
  const stream = await openChatStream(base, a.id);
  try {
    const idleStop = await call(base, 'POST', `/api/teams/${a.id}/chat/stop`);
    assert.deepEqual([idleStop.status, idleStop.body], [200, { ok: true }], 'stop when nothing runs');

    await chat(base, a.id, { message: `TOOL: create_task ${JSON.stringify(args)}` });
    const [held] = await gw.model.untilHeld(1, 120_000);
    assert.ok(held?.prompt.startsWith('Task '), held?.prompt);
    const taskId = (await stream.until('the slow task claimed', (f) => isBoard(f) && f.title === title && f.status === 'in_progress') as { id: string }).id;
    const memberKey = `agent:${a.member.id}:team:${a.id}`;
    const delta = await stream.until('a delta of the member\'s run', (f) => isDelta(f) && f.sessionKey === memberKey);
    const runId = (delta as { runId: string }).runId;
    // The lead's own run (the tool call) has ended before the stop.
    await replyRow(stream, a.lead.id, a.id, 'what the tool said', (t) => t.startsWith('Tool said: ') && t.includes(taskId));

    // A second task for the member while it is busy: ready, claimed, queued behind the running one.
    const queued = await call<{ task: Task }>(base, 'POST', '/api/tasks', { title: 'Queued job', teamId: a.id, assigneeAgentId: a.member.id, createdByAgentId: a.lead.id });
    assert.equal(queued.status, 200, JSON.stringify(queued.body));
    const queuedId = queued.body.task.id;
    await stream.until('the queued task claimed', (f) => isBoard(f) && f.id === queuedId && f.status === 'in_progress');

    const stop = await call(base, 'POST', `/api/teams/${a.id}/chat/stop`);
    assert.deepEqual([stop.status, stop.body], [200, { ok: true }]);

    // Aborted at the gateway: the model's stream was closed before its end.
    await waitFor(() => held?.state === 'closed', { what: 'the gateway to abort the member\'s model call' });
    await stream.until('the member idle after the stop', (f) => isStatus(f) && f.agentId === a.member.id && f.status === 'idle');
    // Both tasks back to todo, on the board and on the stream.
    await waitFor(async () => (await task(base, taskId)).status === 'todo' && (await task(base, queuedId)).status === 'todo', { what: 'the claimed tasks back to todo' });
    await stream.until('the slow task back to todo', (f) => isBoard(f) && f.id === taskId && f.status === 'todo');

    // `cancelled` rows: the aborted run and the queued delegation.
    const rows = executions(home, a.id);
    const aborted = rows.find((r) => r.run_id === runId);
    assert.equal(aborted?.status, 'cancelled', JSON.stringify(aborted));
    const dropped = rows.filter((r) => r.task_id === queuedId);
    assert.deepEqual(dropped.map((r) => [r.agent_id, r.trigger, r.status]), [[a.member.id, 'delegation', 'cancelled']]);
    // Nothing stays open in the feed: fleet health has the member idle.
    const health = await call<{ agents: Array<{ agentId: string; openExecutions: number }> }>(base, 'GET', `/api/obs/health?teamId=${a.id}`);
    assert.equal(health.body.agents.find((x) => x.agentId === a.member.id)?.openExecutions, 0, JSON.stringify(health.body));

    // The next message works; the stopped task was neither reported to the lead nor delivered again.
    await chat(base, a.id, { message: 'after the stop' });
    await replyRow(stream, a.lead.id, a.id, 'the answer after the stop', (t) => t === 'ECHO: after the stop');
    assert.ok(!stream.rows().some((e) => e.text.includes(`Result of task ${taskId}`)), 'no result of the stopped task');
    assert.equal((await task(base, taskId)).status, 'todo');
    assert.equal(gw.model.requests.filter((r) => r.prompt.startsWith(`Task ${taskId} `)).length, 1, 'delivered once');

    const again = await call(base, 'POST', `/api/teams/${a.id}/chat/stop`);
    assert.deepEqual([again.status, again.body], [200, { ok: true }], 'stop when idle again');
  } finally {
    gw.model.release();
    await stream.close();
  }
}
