// Issue 30 #3 in the team chat: a task created through svc's tasks MCP
// server by a session with no identity (the spec's attach snippet) is an
// agent's delegation, delivered like one; a task a person puts on the board
// is not. The team-chat host over a real SQLite file with a scripted gateway
// (test/helpers/team-chat-scripted.ts: team Blue, lead Writer, member
// Editor), and the tasks server over its own connection to the same file,
// as the svc-mcp-tasks binary has, reached by the real MCP SDK client.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Task } from '../../shared/board/types.ts';
import { loadConfig } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';
import { createMcpContext, stdioRedactor } from '../../shared/mcp/context.ts';
import { createTasksServer } from '../../shared/mcp/tasks-server.ts';
import { MESSAGE_MARKER } from '../../shared/team-chat/runs/preamble.ts';
import { gatewaySessionKeyOf } from '../../shared/team-chat/routing/answerer.ts';
import { connectInMemory } from '../helpers/mcp.ts';
import { removeHome, tempHome, testEnv } from '../helpers/server.ts';
import { fixture, type Fixture } from '../helpers/team-chat-scripted.ts';
import { waitFor } from '../helpers/wait.ts';

const S = 'Issue 30 #3';

/** What each chat.send carried after the preamble, by run id. */
function recordMessages(f: Fixture): Map<string, string> {
  const messages = new Map<string, string>();
  const session = f.gw.connection.session();
  assert.ok(session);
  const request = session.request.bind(session);
  session.request = async (method, params, opts) => {
    const answer = await request(method, params, opts);
    if (method === 'chat.send') {
      const text = (params as { message: string }).message;
      messages.set((answer as { runId: string }).runId, text.slice(text.lastIndexOf(MESSAGE_MARKER) + MESSAGE_MARKER.length));
    }
    return answer;
  };
  return messages;
}

/** A tasks MCP session without a binding, on its own connection to the fixture's database. */
async function unboundTasks(t: TestContext, f: Fixture): Promise<Client> {
  const home = tempHome('svc-mcp-origin-');
  const config = loadConfig(testEnv(home, { LOG_LEVEL: 'silent', SVC_DB_PATH: f.db.name }));
  const ctx = createMcpContext(config, createLogger({ level: 'silent' }), stdioRedactor(config));
  t.after(() => {
    ctx.close();
    removeHome(home);
  });
  return connectInMemory(t, createTasksServer(ctx, {}));
}

async function createTask(client: Client, args: Record<string, unknown>): Promise<Task> {
  const r = (await client.callTool({ name: 'create_task', arguments: args })) as CallToolResult;
  assert.notEqual(r.isError, true, JSON.stringify(r.content));
  return (JSON.parse((r.content[0] as { text: string }).text) as { task: Task }).task;
}

const sessionOf = (f: Fixture, id: string, name: string) => gatewaySessionKeyOf({ id, name, gatewayId: null }, f.teamId);
const FROM = "an agent (through svc's tasks server)";

void test(`${S}: an unbound MCP session's task for a member is delivered in the lead's chain, done with the reply, and its result goes to the lead; a person's task waits`, async (t) => {
  const f = fixture(t);
  const messages = recordMessages(f);
  const tasks = await unboundTasks(t, f);

  // The lead is answering a user's message when it puts the task on the board.
  f.host.ingest({ teamId: f.teamId, message: 'plan the work', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the lead\'s run' });
  const leadRow = f.executions()[0];
  assert.ok(leadRow);
  const task = await createTask(tasks, { title: 'Write the summary', description: 'One line.', teamId: f.teamId, assigneeAgentId: 'editor' });
  assert.deepEqual([task.createdByAgentId, task.origin], [null, 'mcp']);
  const persons = f.domain.board.create({ title: 'Tidy the notes', teamId: f.teamId, assigneeAgentId: 'editor' });
  assert.equal(persons.origin, 'api');
  f.host.boardChanged({ teamId: f.teamId, taskId: task.id });

  // The member's run starts with the task's message; the person's task is left alone.
  await waitFor(() => f.gw.sends.length === 2, { what: 'the member\'s run' });
  const memberSend = f.gw.sends[1];
  assert.equal(memberSend?.sessionKey, sessionOf(f, 'editor', 'Editor'));
  assert.equal(messages.get(memberSend?.runId as string), `Task ${task.id} from ${FROM}: Write the summary\n\nOne line.`);
  assert.deepEqual([f.domain.board.get(task.id)?.status, f.domain.board.get(task.id)?.assigneeAgentId], ['in_progress', 'editor']);
  assert.equal(f.domain.board.get(persons.id)?.status, 'todo');
  assert.ok(!f.executions().some((x) => x.taskId === persons.id), 'no run for the person\'s task');
  // It joined the lead's message: its chain and trace, a span under the lead's run.
  const taskRow = f.executions().find((x) => x.taskId === task.id);
  assert.deepEqual([taskRow?.trigger, taskRow?.chainId, taskRow?.traceId, taskRow?.parentSpanId], ['delegation', 'user-1', leadRow.traceId, leadRow.spanId]);

  f.gw.finish(f.gw.sends[0]?.runId as string, 'I put it on the board.');
  f.gw.finish(memberSend?.runId as string, 'The plan works.');
  await waitFor(() => f.domain.board.get(task.id)?.status === 'done', { what: 'the task to be done' });
  assert.deepEqual(f.domain.board.comments(task.id).map((c) => [c.body, c.authorAgentId]), [['The plan works.', 'editor']]);

  // The result goes to the lead, in the same chain.
  await waitFor(() => f.gw.sends.length === 3, { what: 'the result to the lead' });
  const resultSend = f.gw.sends[2];
  assert.equal(resultSend?.sessionKey, sessionOf(f, 'writer', 'Writer'));
  assert.equal(messages.get(resultSend?.runId as string), `Result of task ${task.id} "Write the summary" from Editor:\nThe plan works.`);
  f.gw.finish(resultSend?.runId as string, 'Thanks, Editor.');
  await waitFor(() => f.executions().length === 3 && f.executions().every((x) => x.status === 'completed'), { what: 'every run to complete' });
  assert.deepEqual(f.executions().map((x) => [x.agentId, x.trigger, x.chainId]), [['writer', 'user', 'user-1'], ['editor', 'delegation', 'user-1'], ['writer', 'result', 'user-1']]);
  assert.equal(f.domain.board.get(persons.id)?.status, 'todo', 'still the person\'s to hand out');
});

void test(`${S}: an unbound MCP session's task in a team whose lead never ran starts a chain of its own`, async (t) => {
  const f = fixture(t);
  const messages = recordMessages(f);
  const tasks = await unboundTasks(t, f);
  const task = await createTask(tasks, { title: 'Check the links', teamId: f.teamId, assigneeAgentId: 'editor' });
  f.host.boardChanged({ teamId: f.teamId, taskId: task.id });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the member\'s run' });
  assert.equal(messages.get(f.gw.sends[0]?.runId as string), `Task ${task.id} from ${FROM}: Check the links`);
  const row = f.executions()[0];
  assert.deepEqual([row?.agentId, row?.taskId, row?.chainId, row?.parentSpanId], ['editor', task.id, `task-${task.id}`, null]);
});
