// Issue 17 #2, #3: one message in, the lead's reply out, on the real gateway,
// and everything a run leaves behind that a user can read: the stream (user
// entry, status running, deltas with the full running text, the committed
// reply with its run id, status idle), the execution row, the feed's
// execution_started / execution_completed under the run's span and the one
// cost of its call (written by svc's model endpoint, which the gateway's
// calls pass once svc has wired itself in) in the run's trace, the trace's
// metrics, the cost record priced at the price the gateway's config gives
// the model, from the usage the model reported, and fleet health. A
// repeated entryId is a no-op.
// Not a test file.
import assert from 'node:assert/strict';
import { call, chat, events, executions, openChatStream, teamKey, type ChatFrame } from '../../helpers/team-chat-api.ts';
import { waitFor } from '../../helpers/wait.ts';
import { indexOf, isDelta, isStatus, replyRow, userRow, type TeamChatContext } from './context.ts';

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

export async function replyScenario(ctx: TeamChatContext): Promise<void> {
  const { base, a } = ctx;
  const leadKey = teamKey(a.lead.id, a.id);
  const stream = await openChatStream(base, a.id);
  try {
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    // The snapshot: one status per roster agent.
    await stream.until('the status snapshot', (f) => isStatus(f) && f.agentId === a.member.id);

    const text = 'hello team, what is the plan for today?';
    const entryId = `user-e2e-${Date.now()}`;
    await chat(base, a.id, { message: `   ${text}\n `, entryId });
    const user = await userRow(stream, text, leadKey);
    assert.deepEqual(
      { entryId: user.entryId, role: user.role, kind: user.kind, source: user.source, runId: user.runId, confirmed: user.confirmed },
      { entryId, role: 'user', kind: 'user', source: 'local-send', runId: null, confirmed: true },
      'the trimmed message, under the client\'s entryId',
    );
    const expected = `ECHO: ${text}`;
    const reply = await replyRow(stream, a.lead.id, a.id, 'the echo', (t) => t === expected);
    assert.equal(reply.kind, 'message');
    assert.equal(reply.entryId, `run-${reply.runId}`);
    const runId = reply.runId as string;
    const lastDeltaAt = (fs: ChatFrame[]) => fs.findLastIndex((f) => isDelta(f) && f.runId === runId);
    const idleAfter = (fs: ChatFrame[], from: number) => fs.findIndex((f, i) => i > from && isStatus(f) && f.agentId === a.lead.id && f.status === 'idle');
    const frames = await stream.untilFrames('status idle after the run\'s deltas', (fs) => lastDeltaAt(fs) >= 0 && idleAfter(fs, lastDeltaAt(fs)) >= 0);

    // Order on the stream. Committed rows (tier 1) keep their order, so do the
    // named frames (tier 2): the user entry, the deltas, the reply; running,
    // the deltas, idle. Between the tiers only causality holds (a row can reach
    // the stream a flush later than a status sent after it was committed).
    const at = {
      user: indexOf(frames, (f) => f.type === 'row' && f.entry.entryId === entryId),
      running: indexOf(frames, (f) => isStatus(f) && f.agentId === a.lead.id && f.status === 'running'),
      firstDelta: indexOf(frames, (f) => isDelta(f) && f.runId === runId),
      lastDelta: lastDeltaAt(frames),
      reply: indexOf(frames, (f) => f.type === 'row' && f.entry.entryId === reply.entryId),
      idle: idleAfter(frames, lastDeltaAt(frames)),
    };
    assert.ok(at.user >= 0 && at.user < at.firstDelta && at.firstDelta < at.reply, JSON.stringify(at));
    assert.ok(at.running >= 0 && at.running < at.firstDelta && at.lastDelta < at.idle, JSON.stringify(at));
    const deltas = frames.filter(isDelta).filter((f) => f.runId === runId);
    assert.ok(deltas.length >= 1);
    for (const d of deltas) {
      assert.equal(d.sessionKey, leadKey);
      // Replace semantics: each delta is the whole running text, a prefix of the final reply.
      assert.ok(expected.startsWith(d.text.trimEnd()), `delta "${d.text}" is a prefix of the reply`);
    }
    assert.ok(deltas.at(-1)!.text.length >= deltas[0]!.text.length);

    // A client that resumes after the user entry gets the committed rows past it, never a delta again.
    const userRowId = (frames.find((f) => f.type === 'row' && f.entry.entryId === entryId) as { id: number }).id;
    const resumed = await openChatStream(base, a.id, '?since=0', { 'last-event-id': String(userRowId) });
    try {
      const replayed = await resumed.untilFrames('the reply replayed', (fs) => fs.some((f) => f.type === 'row' && f.entry.entryId === reply.entryId));
      const firstRow = replayed.find((f) => f.type === 'row');
      assert.equal(firstRow?.type === 'row' ? firstRow.entry.entryId : null, reply.entryId, 'Last-Event-ID wins over since');
      assert.ok(!replayed.some(isDelta), 'no delta is replayed');
    } finally {
      await resumed.close();
    }

    // The execution row.
    const rows = executions(ctx.home, a.id).filter((r) => r.chain_id === entryId);
    assert.equal(rows.length, 1, JSON.stringify(rows));
    const exec = rows[0]!;
    assert.deepEqual(
      { agent: exec.agent_id, session: exec.session_key, run: exec.run_id, trigger: exec.trigger, status: exec.status, parent: exec.parent_span_id },
      { agent: a.lead.id, session: leadKey, run: runId, trigger: 'user', status: 'completed', parent: null },
    );
    assert.match(exec.trace_id, HEX32);
    assert.match(exec.span_id, HEX16);

    // The usage the model reported for this run's one model call, priced as the gateway's config prices the model.
    const calls = ctx.gw.model.requests.filter((r) => r.prompt === text);
    assert.equal(calls.length, 1, 'one model call');
    const usage = calls[0]!.usage;
    const price = ctx.gw.modelCost;
    const costUsd = (usage.prompt_tokens * price.input + usage.completion_tokens * price.output) / 1_000_000;
    assert.ok(costUsd > 0);
    assert.deepEqual([exec.input_tokens, exec.output_tokens], [usage.prompt_tokens, usage.completion_tokens]);
    assert.ok(Math.abs((exec.cost_usd ?? 0) - costUsd) < 1e-9, `execution cost ${exec.cost_usd} = ${costUsd}`);

    // The feed: started and completed under the run's span, and one cost for its one call in the run's trace. With
    // svc wired into the gateway (its default) the call passed svc's model endpoint, which writes the cost under the
    // call's own span in the run's trace (model-routing.md); the run's end then writes none of its own.
    const traced = await waitFor(async () => {
      const evs = await events(base, { teamId: a.id, traceId: exec.trace_id });
      return evs.some((e) => e.kind === 'execution_completed' && e.spanId === exec.span_id) ? evs : null;
    }, { what: 'execution_completed in the feed' });
    const feed = traced.filter((e) => e.spanId === exec.span_id);
    const byKind = (k: string) => feed.filter((e) => e.kind === k);
    assert.deepEqual(['execution_started', 'execution_completed'].map((k) => byKind(k).length), [1, 1], JSON.stringify(feed.map((e) => e.kind)));
    const costs = traced.filter((e) => e.kind === 'cost');
    assert.equal(costs.length, 1, JSON.stringify(traced.map((e) => e.kind)));
    assert.deepEqual([costs[0]?.data.runId, costs[0]?.data.source], [runId, 'svc-endpoint']);
    const started = byKind('execution_started')[0]!;
    assert.deepEqual(
      { agentId: started.agentId, correlationId: started.correlationId, parentSpanId: started.parentSpanId, data: started.data },
      { agentId: a.lead.id, correlationId: entryId, parentSpanId: null, data: { executionId: exec.id, sessionKey: leadKey, trigger: 'user' } },
    );
    assert.ok(feed.every((e) => e.agentId === a.lead.id && e.teamId === a.id));

    const trace = await call<{ events: unknown[]; metrics: { totalCostUsd: number; inputTokens: number; outputTokens: number } }>(base, 'GET', `/api/obs/traces/${exec.trace_id}`);
    assert.equal(trace.status, 200);
    assert.ok(trace.body.events.length >= 3);
    assert.ok(Math.abs(trace.body.metrics.totalCostUsd - costUsd) < 1e-9, JSON.stringify(trace.body.metrics));
    assert.deepEqual([trace.body.metrics.inputTokens, trace.body.metrics.outputTokens], [usage.prompt_tokens, usage.completion_tokens]);

    const records = await call<unknown>(base, 'GET', `/api/cost-records?teamId=${a.id}`);
    assert.equal(records.status, 200);
    const list = (Array.isArray(records.body) ? records.body : (records.body as { records: unknown[] }).records) as Array<Record<string, unknown>>;
    const record = list.find((r) => r.runId === runId);
    assert.ok(record, `a cost record for run ${runId}: ${JSON.stringify(list).slice(0, 500)}`);
    assert.deepEqual(
      { agentId: record.agentId, teamId: record.teamId, sessionKey: record.sessionKey, inputTokens: record.inputTokens, outputTokens: record.outputTokens },
      { agentId: a.lead.id, teamId: a.id, sessionKey: leadKey, inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens },
    );
    assert.ok(Math.abs(Number(record.costUsd) - costUsd) < 1e-9);

    const health = await call<{ agents: Array<{ agentId: string; status: string; openExecutions: number; costUsd: number }> }>(base, 'GET', `/api/obs/health?teamId=${a.id}`);
    const lead = health.body.agents.find((x) => x.agentId === a.lead.id);
    assert.ok(lead, JSON.stringify(health.body));
    assert.deepEqual([lead.status, lead.openExecutions], ['idle', 0]);
    assert.ok(lead.costUsd >= costUsd);

    // The same entryId again: 202, nothing new written, nothing queued.
    await chat(base, a.id, { message: text, entryId });
    const next = 'and the next message';
    await chat(base, a.id, { message: next });
    await replyRow(stream, a.lead.id, a.id, 'the echo of the next message', (t) => t === `ECHO: ${next}`);
    assert.equal(stream.rows().filter((e) => e.entryId === entryId).length, 1, 'one user entry for the entryId');
    assert.equal(executions(ctx.home, a.id).filter((r) => r.chain_id === entryId).length, 1, 'one run for it');
    assert.equal(ctx.gw.model.requests.filter((r) => r.prompt === text).length, 1, 'the model was not asked again');
  } finally {
    await stream.close();
  }
}
