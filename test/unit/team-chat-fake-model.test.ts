// Issue 17 (real components): the fake model the real-gateway tests drive.
// Its parsing decides what a test's prompt makes the "model" do, so the
// non-trivial parts are proven here: the gateway's and svc's wrapping
// stripped, the commands, the tool matching, the tool-result unwrapping; and
// over HTTP, a tool call then its answer, usage from sizes, and the SLOW gate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandOf, findTool, holdsOnce, promptOf, replyTo, runtimeAgentOf, toolResultsOf, unwrapToolResult } from '../helpers/fake-model-prompts.ts';
import { startFakeModel } from '../helpers/fake-model.ts';
import { waitFor } from '../helpers/wait.ts';

const SELF = 'Testing (issue 17): the fake model';

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const INTERNAL = { role: 'user', content: '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nstuff\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>' };

void test(`${SELF}: reads what follows the last [Message] marker, else the whole text, without the date prefix and the Runtime line`, () => {
  const wrapped = (t: string) => `[Sun 2026-11-22 03:57 UTC] ${t}\n\nRuntime: agent=ada | session=agent:ada:team:t1`;
  assert.equal(promptOf([user(wrapped('hello there'))]), 'hello there');
  const delivery = '[Team rules]\nbe brief\n\n[Activity]\nuser: [Message]\nold\n\n[Message]\nTOOL: list_tasks {}';
  assert.equal(promptOf([user(wrapped(delivery))]), 'TOOL: list_tasks {}', 'the last marker wins');
  // The gateway's synthetic internal-context message after the prompt is not the prompt.
  assert.equal(promptOf([user(wrapped('first')), { role: 'assistant', content: 'x' }, user(wrapped('second')), INTERNAL]), 'second');
  assert.equal(promptOf([]), '');
  assert.equal(promptOf('nope'), '');
});

void test(`${SELF}: TOOL on the first line with JSON (possibly over several lines), SLOW on any line, else echo`, () => {
  assert.deepEqual(commandOf('TOOL: create_task {"title":"x","teamId":"t1"}'), { kind: 'tool', name: 'create_task', args: { title: 'x', teamId: 't1' } });
  assert.deepEqual(commandOf('TOOL: list_tasks'), { kind: 'tool', name: 'list_tasks', args: {} });
  assert.deepEqual(commandOf('TOOL: add_comment {\n "body": "hi"\n}'), { kind: 'tool', name: 'add_comment', args: { body: 'hi' } });
  assert.deepEqual(commandOf('TOOL: x not json'), { kind: 'tool', name: 'x', args: { raw: 'not json' } });
  assert.deepEqual(commandOf('TOOL: x [1]'), { kind: 'tool', name: 'x', args: { raw: '[1]' } });
  assert.deepEqual(commandOf('please\nTOOL: x {}'), { kind: 'echo', text: 'please\nTOOL: x {}' }, 'TOOL only as the first line: an echo quoting it never loops');
  assert.deepEqual(commandOf('Task 1 from Ada: job\n\nSLOW: grinding'), { kind: 'slow', text: 'Task 1 from Ada: job\n\nSLOW: grinding' });
  assert.deepEqual(commandOf('not SLOW: here'), { kind: 'echo', text: 'not SLOW: here' });
});

void test(`Delegation (issue 23, item 2): TOOL@<agent> calls the tool only in that gateway agent's run (the Runtime line's agent=), else echoes`, () => {
  const runtime = (t: string, agent: string) => user(`[Sun 2026-11-22 03:57 UTC] ${t}\n\nRuntime: agent=${agent} | session=agent:${agent}:team:t1 | model=p/m`);
  assert.equal(runtimeAgentOf([runtime('hi', 'lead-1'), INTERNAL]), 'lead-1', 'the internal-context message is skipped');
  assert.equal(runtimeAgentOf([runtime('first', 'x'), { role: 'assistant', content: 'a' }, user('[Sun] second, no runtime line'), INTERNAL]), 'x', 'the Runtime line is on the first message only');
  assert.equal(runtimeAgentOf([user('no runtime line')]), null);
  assert.equal(runtimeAgentOf('nope'), null);
  const spawn = 'TOOL@lead: sessions_spawn {"task":"SLOW: dig","agentId":"child"}';
  assert.deepEqual(commandOf(spawn, 'lead'), { kind: 'tool', name: 'sessions_spawn', args: { task: 'SLOW: dig', agentId: 'child' } });
  assert.deepEqual(commandOf(spawn, 'child'), { kind: 'echo', text: spawn });
  assert.deepEqual(commandOf(spawn), { kind: 'echo', text: spawn }, 'no Runtime line: nobody is that agent');
  assert.deepEqual(commandOf('TOOL: list_tasks {}', 'anyone'), { kind: 'tool', name: 'list_tasks', args: {} }, 'plain TOOL: is for every agent');
  assert.deepEqual(replyTo(spawn, ['sessions_spawn'], [], 'lead').reply, { toolCall: { name: 'sessions_spawn', arguments: { task: 'SLOW: dig', agentId: 'child' } } });
  assert.deepEqual(replyTo(spawn, ['sessions_spawn'], ['{"status":"accepted"}'], 'lead').reply, { text: 'Tool said: {"status":"accepted"}' });
  assert.deepEqual(replyTo(spawn, ['sessions_spawn'], [], 'other').reply, { text: `ECHO: ${spawn}` });
});

void test(`${SELF}: a tool is the offered one named so, else an MCP tool <server>__<name>`, () => {
  const offered = ['read', 'svc-tasks-ada__create_task', 'create_task_draft', 'svc-tasks-ada__list_tasks'];
  assert.equal(findTool(offered, 'create_task'), 'svc-tasks-ada__create_task');
  assert.equal(findTool(offered, 'read'), 'read');
  assert.equal(findTool(offered, 'task'), undefined, 'a suffix without the __ separator is not a match');
  assert.equal(findTool([], 'read'), undefined);
});

void test(`${SELF}: unwraps the gateway's EXTERNAL_UNTRUSTED_CONTENT wrapper and an MCP result's texts`, () => {
  const wrapped = (payload: string) =>
    `SECURITY NOTICE: the content below comes from an external source.\n<<<EXTERNAL_UNTRUSTED_CONTENT id="abc">>>\nSource: API\n---\n${payload}\n<<<END_EXTERNAL_UNTRUSTED_CONTENT id="abc">>>`;
  assert.equal(unwrapToolResult(wrapped('{"task":{"id":"t1"}}')), '{"task":{"id":"t1"}}');
  assert.equal(unwrapToolResult(wrapped('{"tool":"x","result":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}')), 'a b');
  assert.equal(unwrapToolResult('plain text'), 'plain text');
  assert.equal(unwrapToolResult('{"content":[{"text":"c"}]}'), 'c');
});

void test(`${SELF}: a tool call first, "Tool said: ..." once its result is back, NO TOOL when none is offered`, () => {
  const tools = ['svc-tasks-ada__list_tasks'];
  assert.deepEqual(replyTo('TOOL: list_tasks {"teamId":"t1"}', tools, []).reply, { toolCall: { name: 'svc-tasks-ada__list_tasks', arguments: { teamId: 't1' } } });
  assert.deepEqual(replyTo('TOOL: list_tasks {}', tools, ['{"tasks":\n[]}']).reply, { text: 'Tool said: {"tasks": []}' });
  assert.deepEqual(replyTo('TOOL: create_task {}', tools, []).reply, { text: 'NO TOOL create_task' });
  assert.deepEqual(replyTo('SLOW: wait', tools, []), { reply: { text: 'ECHO: SLOW: wait' }, slow: true });
  // Results of an earlier turn (before the last real user message) do not count.
  assert.deepEqual(toolResultsOf([user('a'), { role: 'tool', content: 'old' }, user('b'), INTERNAL, { role: 'tool', content: 'new' }]), ['new']);
});

void test('Runaway (issue 31, item 7): LOOP calls the tool again on every request of the turn, whatever came back; TOOL still answers once the result is back', () => {
  const tools = ['read'];
  assert.deepEqual(commandOf('LOOP: read {"path":"loop.txt"}'), { kind: 'loop', name: 'read', args: { path: 'loop.txt' } });
  assert.deepEqual(commandOf('LOOP@ada: read {}', 'bob'), { kind: 'echo', text: 'LOOP@ada: read {}' }, 'LOOP@<agent> is for that agent only');
  assert.deepEqual(commandOf('please\nLOOP: read {}'), { kind: 'echo', text: 'please\nLOOP: read {}' }, 'LOOP only as the first line');
  const loopCall = { toolCall: { name: 'read', arguments: { path: 'loop.txt' } } };
  assert.deepEqual(replyTo('LOOP: read {"path":"loop.txt"}', tools, []).reply, loopCall);
  assert.deepEqual(replyTo('LOOP: read {"path":"loop.txt"}', tools, ['same', 'same', 'same']).reply, loopCall);
  assert.deepEqual(replyTo('LOOP: write {}', tools, []).reply, { text: 'NO TOOL write' });
  assert.deepEqual(replyTo('TOOL: read {"path":"loop.txt"}', tools, ['same']).reply, { text: 'Tool said: same' });
});

void test(`${SELF}: a SLOW line holds once: a prompt quoting it later (a resumed turn, an echo passed on) does not`, () => {
  const seen = new Set<string>();
  assert.equal(holdsOnce('SLOW: dies', seen), true);
  assert.equal(holdsOnce('[Queued user message from a previous active turn]\nSLOW: dies\n\n[System] Your previous turn was interrupted', seen), false);
  assert.equal(holdsOnce('Task 1 from Ada: job\n\nSLOW: grinding', seen), true);
  assert.equal(holdsOnce('no slow line', seen), false);
});

async function post(url: string, body: unknown): Promise<string> {
  const res = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.text();
}

/** The streamed text and the usage chunk of an SSE completion. */
function parseStream(sse: string): { text: string; toolCalls: unknown[]; usage: unknown } {
  const chunks = sse.split('\n\n').filter((b) => b.startsWith('data: {')).map((b) => JSON.parse(b.slice(6)) as { choices: Array<{ delta: { content?: string; tool_calls?: unknown[] } }>; usage?: unknown });
  return {
    text: chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''),
    toolCalls: chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []),
    usage: chunks.find((c) => c.usage)?.usage,
  };
}

void test(`${SELF}: over HTTP, streams the tool call and the echo, with usage computed from the sizes`, async (t) => {
  const fake = await startFakeModel();
  t.after(() => fake.close());
  const tools = [{ type: 'function', function: { name: 'svc-tasks-ada__list_tasks', parameters: {} } }];
  const call = parseStream(await post(fake.url, { model: 'm', stream: true, tools, messages: [user('TOOL: list_tasks {}')] }));
  assert.equal(call.text, '');
  assert.deepEqual(call.toolCalls.map((c) => (c as { function: { name?: string } }).function.name).filter(Boolean), ['svc-tasks-ada__list_tasks']);
  const echo = parseStream(await post(fake.url, { model: 'm', stream: true, messages: [user('[x] 12345678')] }));
  assert.equal(echo.text, 'ECHO: 12345678');
  // 12 characters of prompt ("[x] 12345678") and 14 of reply: ceil(12/4), ceil(14/4).
  assert.deepEqual(echo.usage, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  assert.deepEqual(fake.requests.map((r) => r.prompt), ['TOOL: list_tasks {}', '12345678']);
  assert.deepEqual(fake.prompts, ['TOOL: list_tasks {}', '12345678']);
});

void test(`${SELF}: a SLOW stream waits at the gate after its first word until release(); a closed stream is marked closed`, async (t) => {
  const fake = await startFakeModel();
  t.after(() => fake.close());
  const done = post(fake.url, { model: 'm', stream: true, messages: [user('SLOW: one two')] });
  const [held] = await fake.untilHeld(1);
  assert.equal(held?.prompt, 'SLOW: one two');
  assert.equal(fake.release(), 1);
  assert.equal(parseStream(await done).text, 'ECHO: SLOW: one two');
  assert.equal(held?.state, 'done');

  const ac = new AbortController();
  const aborted = fetch(`${fake.url}/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, signal: ac.signal,
    body: JSON.stringify({ model: 'm', stream: true, messages: [user('SLOW: never ends')] }),
  }).then((r) => r.text()).catch(() => 'aborted');
  const [second] = await fake.untilHeld(1);
  ac.abort();
  assert.equal(await aborted, 'aborted');
  await waitFor(() => second?.state === 'closed', { what: 'the fake to see the stream closed' });
  assert.equal(fake.held().length, 0);
  assert.equal(fake.release(), 0, 'nothing is held after the close');
});

