// svc's model endpoint on real sockets (issue 22, items 1, 3, 4, 5): the
// streaming pass-through, usage into rows, cost records, cost events and
// budget spend, and the cap refusal in each API's shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createExecutions } from '../../shared/team-chat/runs/executions.ts';
import { deadline, waitFor } from '../helpers/wait.ts';
import {
  ANTHROPIC_KEY, OPENAI_KEY, PRICED_MODEL, budgetsOf, callsOf, completionsBody, createBudget, post, sseData, startEndpoint, type Endpoint,
} from './model-endpoint-fixture.ts';

const COMPLETIONS = '/model/alice/v1/chat/completions';
const MESSAGES = '/model/bob/v1/messages';
const RESPONSES = '/model/carol/v1/responses';

function rows(e: Endpoint, sql: string, ...params: unknown[]): Array<Record<string, unknown>> {
  return e.runtime.deps.db.prepare(sql).all(...params) as Array<Record<string, unknown>>;
}

void test('Budgets (issue 22, item 1): the provider’s first chunk reaches the caller while the provider still holds the rest of its stream', async (t) => {
  const e = await startEndpoint(t);
  const res = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('SLOW: one two three'));
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let seen = '';
  // The fake holds its stream after the first word: the caller must have that word now.
  await e.openai.untilHeld();
  const firstWord = (async () => {
    while (!seen.includes('ECHO:')) {
      const { value, done } = await reader.read();
      assert.equal(done, false, 'the stream ended before its first word arrived');
      seen += dec.decode(value, { stream: true });
    }
  })();
  await deadline(firstWord, { what: 'the first word to reach the caller while the provider holds its stream' });
  assert.equal(e.openai.requests[0]?.state, 'held', 'the provider had not sent its last chunk yet');
  assert.equal(e.openai.release(), 1);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += dec.decode(value, { stream: true });
  }
  const text = sseData(seen).map((d) => ((d.choices as Array<{ delta?: { content?: string } }>)?.[0]?.delta?.content ?? '')).join('');
  assert.equal(text, 'ECHO: SLOW: one two three');
  // svc asked for the usage chunk the caller did not request, and the provider got the real key, not svc's token.
  const sent = e.openai.requests[0]!;
  assert.equal(sent.model, PRICED_MODEL);
  const [call] = await waitFor(async () => ((await callsOf(e)).length === 1 && (await callsOf(e))[0]?.outcome !== 'open' ? callsOf(e) : undefined), { what: 'the call row to end' });
  assert.equal(call?.outcome, 'ok');
  assert.equal(call?.inputTokens, sent.usage.prompt_tokens);
  assert.equal(call?.outputTokens, sent.usage.completion_tokens);
});

void test('Budgets (issue 22, item 5): a call’s usage becomes its model_calls row, one cost record, one cost event, its span, and the budget’s settled spend', async (t) => {
  const e = await startEndpoint(t);
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 500, mode: 'cap' });
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const res = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('hello there', { stream: false }), { traceparent });
  assert.equal(res.status, 200);
  const answer = (await res.json()) as { choices: Array<{ message: { content: string } }>; usage: { prompt_tokens: number; completion_tokens: number } };
  assert.equal(answer.choices[0]?.message.content, 'ECHO: hello there');

  const [call] = await callsOf(e, '?agentId=alice');
  assert.ok(call);
  assert.equal(call.outcome, 'ok');
  assert.equal(call.provider, 'fake');
  assert.equal(call.api, 'openai-completions');
  assert.equal(call.model, PRICED_MODEL);
  assert.equal(call.traceId, '0af7651916cd43dd8448eb211c80319c');
  assert.equal(call.inputTokens, answer.usage.prompt_tokens);
  assert.equal(call.outputTokens, answer.usage.completion_tokens);
  assert.equal(call.httpStatus, 200);
  assert.ok((call.costUsd as number) > 0);
  assert.ok(typeof call.ttftMs === 'number' && typeof call.durationMs === 'number');
  assert.deepEqual(await callsOf(e, '?traceId=0af7651916cd43dd8448eb211c80319c'), [call]);

  const costs = rows(e, 'SELECT agent_id AS agentId, model, input_tokens AS i, output_tokens AS o, cost_usd AS usd FROM cost_records');
  assert.deepEqual(costs, [{ agentId: 'alice', model: `fake/${PRICED_MODEL}`, i: call.inputTokens, o: call.outputTokens, usd: call.costUsd }]);
  const events = rows(e, "SELECT kind, agent_id AS agentId, span_id AS spanId, data FROM events WHERE kind IN ('cost', 'span_start', 'span_end') ORDER BY seq");
  assert.deepEqual(events.map((r) => r.kind), ['span_start', 'cost', 'span_end']);
  const cost = JSON.parse(events[1]!.data as string) as Record<string, unknown>;
  assert.equal(cost.modelCallId, call.id);
  assert.equal(cost.source, 'svc-endpoint');
  assert.equal(cost.usd, call.costUsd);
  assert.equal(events[0]!.spanId, events[2]!.spanId);

  const [after] = (await budgetsOf(e)).filter((b) => b.id === budget.id);
  assert.equal(after?.spentUsd, Math.ceil((call.costUsd as number) * 1e6) / 1e6);
  assert.equal(after?.reservedUsdCents, 0);
  assert.equal(rows(e, "SELECT * FROM budget_reservations WHERE state = 'open'").length, 0);
});

void test('Budgets (issue 22, item 3): Anthropic streams and Responses answers are passed through with their usage read', async (t) => {
  const e = await startEndpoint(t);
  const res = await post(e, MESSAGES, null, { model: 'claude-sonnet-4-5', max_tokens: 200, stream: true, messages: [{ role: 'user', content: 'hi bob' }] }, {
    'x-api-key': e.tokens.bob,
    'anthropic-version': '2023-06-01',
  });
  assert.equal(res.status, 200);
  const events = sseData(await res.text());
  const types = events.map((d) => d.type);
  assert.deepEqual([types[0], types.at(-3), types.at(-2), types.at(-1)], ['message_start', 'content_block_stop', 'message_delta', 'message_stop']);
  const said = events.filter((d) => d.type === 'content_block_delta').map((d) => (d.delta as { text: string }).text).join('');
  assert.equal(said, 'ECHO: hi bob');
  const upstream = e.anthropic.requests[0]!;
  assert.equal(upstream.headers['x-api-key'], ANTHROPIC_KEY);
  assert.equal(upstream.headers['anthropic-version'], '2023-06-01');
  assert.equal(upstream.headers.authorization, undefined);
  const start = events[0] as { message: { usage: { input_tokens: number } } };
  const delta = events.at(-2) as { usage: { output_tokens: number } };
  const [call] = await callsOf(e, '?agentId=bob');
  assert.equal(call?.outcome, 'ok');
  assert.equal(call?.inputTokens, start.message.usage.input_tokens);
  assert.equal(call?.outputTokens, delta.usage.output_tokens);

  const r2 = await post(e, RESPONSES, e.tokens.carol, { model: 'gpt-4.1', input: 'hi carol', max_output_tokens: 50 });
  assert.equal(r2.status, 200);
  const body = (await r2.json()) as { usage: { input_tokens: number; output_tokens: number } };
  assert.equal(e.anthropic.requests[1]?.headers.authorization, `Bearer ${OPENAI_KEY}`);
  const [resp] = await callsOf(e, '?agentId=carol');
  assert.equal(resp?.api, 'openai-responses');
  assert.equal(resp?.inputTokens, body.usage.input_tokens);
  assert.equal(resp?.outputTokens, body.usage.output_tokens);
});

// The estimate of a call asking for 100k output tokens of gpt-4o-mini is 6 cents: over a 1-cent cap.
const BIG = { max_tokens: 100_000 };

void test('Budgets (issue 22, item 4): a cap refusal is a 200 completion in the caller’s API and stream mode; no provider call; the budget pauses; resume with grace lets the next call through', async (t) => {
  const e = await startEndpoint(t);
  const alice = await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 1, mode: 'cap' });
  await createBudget(e, { scope: 'agent', scopeId: 'bob', limitUsdCents: 1, mode: 'cap' });
  const before = e.openai.requests.length;

  const streamed = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('please', BIG));
  assert.equal(streamed.status, 200);
  assert.match(streamed.headers.get('content-type') ?? '', /text\/event-stream/);
  const chunks = sseData(await streamed.text());
  const text = chunks.map((d) => ((d.choices as Array<{ delta?: { content?: string } }>)?.[0]?.delta?.content ?? '')).join('');
  assert.equal(text, 'svc stopped this call: the agent alice budget reached its cap of $0.01. Resume it in svc to continue.');
  assert.ok(chunks.some((d) => (d.choices as Array<{ finish_reason?: string }>)?.[0]?.finish_reason === 'stop'));
  assert.ok(!JSON.stringify(chunks).includes('tool_calls'));

  const plain = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('please', { ...BIG, stream: false }));
  const json = (await plain.json()) as { choices: Array<{ message: { content: string }; finish_reason: string }> };
  assert.equal(plain.status, 200);
  assert.equal(json.choices[0]?.finish_reason, 'stop');
  assert.match(json.choices[0]?.message.content ?? '', /agent alice budget reached its cap/);
  assert.equal(e.openai.requests.length, before, 'the provider was not called');

  const anthropicBody = { model: PRICED_MODEL, stream: true, max_tokens: 100_000, messages: [{ role: 'user', content: 'x' }] };
  const a1 = await post(e, MESSAGES, e.tokens.bob, anthropicBody);
  const aEvents = sseData(await a1.text());
  assert.equal(a1.status, 200);
  assert.deepEqual(aEvents.map((d) => d.type), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
  assert.equal((aEvents[4] as { delta: { stop_reason: string } }).delta.stop_reason, 'end_turn');
  const a2 = await post(e, MESSAGES, e.tokens.bob, { ...anthropicBody, stream: false });
  const aJson = (await a2.json()) as { content: Array<{ type: string; text: string }>; stop_reason: string };
  assert.equal(aJson.stop_reason, 'end_turn');
  assert.deepEqual(aJson.content.map((c) => c.type), ['text']);
  assert.equal(e.anthropic.requests.length, 0, 'the Anthropic provider was not called');

  const paused = (await budgetsOf(e)).find((b) => b.id === alice.id);
  assert.equal(paused?.status, 'paused');
  const refused = await callsOf(e, '?agentId=alice');
  assert.deepEqual(refused.map((c) => [c.outcome, c.budgetId]), [['refused', alice.id], ['refused', alice.id]]);
  const errors = rows(e, "SELECT agent_id AS agentId, data FROM events WHERE kind = 'error' AND agent_id = 'alice'");
  assert.equal(errors.length, 1, 'one error event when the budget paused');
  assert.equal((JSON.parse(errors[0]!.data as string) as { errorClass: string }).errorClass, 'BudgetExceeded');
  assert.ok(rows(e, "SELECT kind FROM governance_audit WHERE kind = 'cap_hit'").length >= 1);

  // Resume with 10 cents of grace: the cap in force is 11 cents, over the 6-cent estimate.
  const resumed = await e.app.inject({ method: 'POST', url: '/api/governance/budgets/agent/alice/resume', payload: { graceUsdCents: 10 } });
  assert.equal(resumed.statusCode, 200, resumed.body);
  const next = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('after resume', BIG));
  const nextText = sseData(await next.text()).map((d) => ((d.choices as Array<{ delta?: { content?: string } }>)?.[0]?.delta?.content ?? '')).join('');
  assert.equal(nextText, 'ECHO: after resume');
  assert.equal(e.openai.requests.length, before + 1);
  assert.equal((await callsOf(e, '?agentId=alice'))[0]?.outcome, 'ok');
});

void test('Budgets (issue 22, item 5): a call of a run svc started is attributed to its team, task, run and session; a team cap refuses it and asks the team chat to halt that run', async (t) => {
  const e = await startEndpoint(t);
  const { deps } = e.runtime;
  const team = await e.app.inject({ method: 'POST', url: '/api/teams', payload: { name: 'ops', icon: 'x', color: 'blue' } });
  assert.equal(team.statusCode, 200, team.body);
  const teamId = (team.json() as { team: { id: string } }).team.id;
  const sessionKey = `agent:alice:team:${teamId}`;
  createExecutions(deps.db).start({
    id: 'exec-1', teamId, agentId: 'alice', sessionKey, taskId: 'task-9', trigger: 'message', chainId: 'chain-1',
    traceId: 'trace-1', spanId: 'span-1', parentSpanId: null, startedAt: Date.now(), runId: 'run-1',
  });
  // As the gateway sends it: the Runtime line of the last user message names the session.
  const runtimeLine = `[Message] hello\n\nRuntime: agent=alice | session=${sessionKey} | sessionId=abc | model=fake/${PRICED_MODEL}`;
  const ok = await post(e, COMPLETIONS, e.tokens.alice, completionsBody(runtimeLine, { stream: false }));
  assert.equal(ok.status, 200);
  const [call] = await callsOf(e, '?runId=run-1');
  assert.deepEqual([call?.teamId, call?.taskId, call?.runId, call?.sessionKey], [teamId, 'task-9', 'run-1', sessionKey]);
  const cost = e.runtime.deps.db.prepare("SELECT team_id AS teamId, task_id AS taskId, trace_id AS traceId, parent_span_id AS parent FROM events WHERE kind = 'cost'").get();
  assert.deepEqual(cost, { teamId, taskId: 'task-9', traceId: 'trace-1', parent: 'span-1' });

  await createBudget(e, { scope: 'team', scopeId: teamId, limitUsdCents: 1, mode: 'cap' });
  const halts: unknown[] = [];
  const halt = deps.teamChat.haltForBudget.bind(deps.teamChat);
  deps.teamChat.haltForBudget = (p) => {
    halts.push(p);
    return halt(p);
  };
  const refused = await post(e, COMPLETIONS, e.tokens.alice, completionsBody(runtimeLine, { stream: false, max_tokens: 100_000 }));
  const text = ((await refused.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content;
  assert.equal(text, `svc stopped this call: the team “ops” budget reached its cap of $0.01. Resume it in svc to continue.`);
  const [budget] = await budgetsOf(e);
  await waitFor(() => halts.length === 1, { what: 'the team chat to be asked to halt the run' });
  assert.deepEqual(halts[0], { agentId: 'alice', sessionKey, budgetLabel: 'team “ops”', budgetId: budget?.id });
});
