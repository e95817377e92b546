// Issue 30 #2 and #3 on svc's in-process MCP servers: the app built in this
// process, listening on a loopback port, the real MCP SDK Client over
// Streamable HTTP. A session bound to an agent by a minted binding is that
// agent on all four servers (shared/mcp/bound-identity.ts): an argument
// naming another agent is refused and writes nothing, one naming the bound
// agent or left out acts as it. A task created through the tasks server has
// origin `mcp`; one created through POST /api/tasks has `api`.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

interface Task { id: string; teamId: string | null; status: string; assigneeAgentId: string | null; createdByAgentId: string | null; origin: string }
interface Comment { body: string; authorAgentId: string | null }

interface Svc {
  built: TestApp;
  base: string;
  teamId: string;
  clients: Client[];
}

/** The app on a loopback port, with team Crew: lead Lena and member Bob. */
async function svc(t: TestContext): Promise<Svc> {
  const clients: Client[] = [];
  // Registered first, so it runs before the app's own cleanup: an open session's stream would hold the app's close.
  t.after(async () => {
    for (const c of clients) await c.close();
  });
  const built = await buildTestApp(t);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  const { domain } = built.runtime.deps;
  const teamId = domain.teams.create({ name: 'Crew', icon: 'x', color: 'blue', leaderAgentId: 'lena' }).id;
  domain.agents.create({ id: 'lena', name: 'Lena', teamId });
  domain.agents.create({ id: 'bob', name: 'Bob', teamId });
  return { built, base, teamId, clients };
}

/** The binding header an operator pastes from GET /api/mcp/config?agentId=. */
async function bindingFor(base: string, server: string, agentId: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/mcp/config?server=${server}&agentId=${agentId}`);
  assert.equal(res.status, 200);
  const { config } = (await res.json()) as { config: { structured: { headers: Record<string, string> } } };
  const token = config.structured.headers['X-Svc-Mcp-Binding'];
  assert.ok(token);
  return { 'X-Svc-Mcp-Binding': token };
}

async function connect({ base, clients }: Svc, server: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '0.0.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/${server}`), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function ok<T>(r: CallToolResult): T {
  assert.notEqual(r.isError, true, `tool failed: ${JSON.stringify(r.content)}`);
  return JSON.parse((r.content[0] as { text: string }).text) as T;
}

/** A refusal for naming another agent: the message, and status 403 as memory's scope refusal. */
function refusedAs(r: CallToolResult, bound: string, argument: string): void {
  assert.equal(r.isError, true, `expected a refusal: ${JSON.stringify(r.content)}`);
  assert.equal((r.content[0] as { text: string }).text, `this session is bound to agent ${bound}: ${argument} cannot name another agent (leave it out, or give ${bound})`);
  assert.equal((r.structuredContent as { status: number }).status, 403);
}

async function get<T>(base: string, path: string): Promise<T> {
  const res = await fetch(`${base}${path}`);
  assert.equal(res.status, 200, path);
  return (await res.json()) as T;
}

const S = 'Issue 30 #2';

void test(`${S}: a bound tasks session's create_task naming another creator is refused and writes no task; equal or omitted creates as the bound agent`, async (t) => {
  const app = await svc(t);
  const { base, teamId, built } = app;
  const lena = await connect(app, 'tasks', await bindingFor(base, 'tasks', 'lena'));

  refusedAs(await call(lena, 'create_task', { title: 'as Bob', teamId, assigneeAgentId: 'bob', createdByAgentId: 'bob' }), 'lena', 'createdByAgentId');
  assert.deepEqual((await get<{ tasks: Task[] }>(base, '/api/tasks')).tasks, [], 'no task');
  const events = built.runtime.deps.db.prepare("SELECT COUNT(*) FROM events WHERE kind = 'task_created'").pluck().get();
  assert.equal(events, 0, 'no task_created event');

  const equal = ok<{ task: Task }>(await call(lena, 'create_task', { title: 'as Lena', assigneeAgentId: 'bob', createdByAgentId: 'lena' })).task;
  const omitted = ok<{ task: Task }>(await call(lena, 'create_task', { title: 'no creator named', assigneeAgentId: 'bob' })).task;
  for (const task of [equal, omitted]) assert.deepEqual([task.createdByAgentId, task.teamId, task.origin], ['lena', teamId, 'mcp']);
});

void test(`${S}: claim_task and add_comment in a bound session: another agent is refused and nothing changes; equal or omitted act as the bound agent`, async (t) => {
  const app = await svc(t);
  const { base, teamId } = app;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200);
    return ((await res.json()) as { task: Task }).task;
  };
  const first = await post('/api/tasks', { title: 'first', teamId });
  const second = await post('/api/tasks', { title: 'second', teamId });
  const bob = await connect(app, 'tasks', await bindingFor(base, 'tasks', 'bob'));

  refusedAs(await call(bob, 'claim_task', { taskId: first.id, agentId: 'lena' }), 'bob', 'agentId');
  assert.deepEqual((await get<{ task: Task }>(base, `/api/tasks/${first.id}`)).task.status, 'todo', 'the refused claim took nothing');
  const byOmission = ok<{ task: Task }>(await call(bob, 'claim_task', { taskId: first.id })).task;
  assert.deepEqual([byOmission.status, byOmission.assigneeAgentId], ['in_progress', 'bob']);
  const byName = ok<{ task: Task }>(await call(bob, 'claim_task', { taskId: second.id, agentId: 'bob' })).task;
  assert.deepEqual([byName.status, byName.assigneeAgentId], ['in_progress', 'bob']);

  refusedAs(await call(bob, 'add_comment', { taskId: first.id, body: 'signed Lena', authorAgentId: 'lena' }), 'bob', 'authorAgentId');
  ok(await call(bob, 'add_comment', { taskId: first.id, body: 'named', authorAgentId: 'bob' }));
  ok(await call(bob, 'add_comment', { taskId: first.id, body: 'unnamed' }));
  const { comments } = await get<{ comments: Comment[] }>(base, `/api/tasks/${first.id}/comments`);
  assert.deepEqual(comments.map((c) => [c.body, c.authorAgentId]), [['named', 'bob'], ['unnamed', 'bob']]);

  // A session without a binding keeps today's rules: its arguments say who, and a claim must name someone.
  const anonymous = await connect(app, 'tasks');
  const third = await post('/api/tasks', { title: 'third', teamId });
  assert.equal((await call(anonymous, 'claim_task', { taskId: third.id })).isError, true);
  assert.equal(ok<{ task: Task }>(await call(anonymous, 'claim_task', { taskId: third.id, agentId: 'lena' })).task.assigneeAgentId, 'lena');
  assert.equal(ok<{ comment: Comment }>(await call(anonymous, 'add_comment', { taskId: third.id, body: 'hi', authorAgentId: 'bob' })).comment.authorAgentId, 'bob');
});

void test(`Security (issue 33 #6): an agent's bound teamchat session reads and posts only in its own teams' rooms, however the room is named`, async (t) => {
  const app = await svc(t);
  const { base, teamId, built } = app;
  const { domain } = built.runtime.deps;
  const other = domain.teams.create({ name: 'Other', icon: 'x', color: 'red', leaderAgentId: 'olga' }).id;
  domain.agents.create({ id: 'olga', name: 'Olga', teamId: other });
  const roomOf = async (id: string) => (await get<{ posts: Array<{ authorAgentId: string; text: string }> }>(base, `/api/team-chat?teamId=${id}`)).posts;
  const closed = (r: CallToolResult) => {
    assert.equal(r.isError, true, `expected a refusal: ${JSON.stringify(r.content)}`);
    assert.equal((r.content[0] as { text: string }).text, `this session is bound to agent bob: team ${other} is not one of its teams, so its room is closed to this session`);
    assert.equal((r.structuredContent as { status: number }).status, 403);
  };
  const olga = await connect(app, 'teamchat', await bindingFor(base, 'teamchat', 'olga'));
  ok(await call(olga, 'team_chat_post', { text: 'their secret plan', teamId: other }));

  // Named in the arguments.
  const chat = await connect(app, 'teamchat', await bindingFor(base, 'teamchat', 'bob'));
  closed(await call(chat, 'team_chat_post', { text: 'hello there', teamId: other }));
  closed(await call(chat, 'team_chat_subscribe', { teamId: other }));
  // Named by the spec's query parameter beside the binding.
  const viaQuery = new Client({ name: 'svc-test', version: '0.0.0' });
  app.clients.push(viaQuery);
  await viaQuery.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/teamchat?roomTeamId=${other}`), { requestInit: { headers: await bindingFor(base, 'teamchat', 'bob') } }),
  );
  closed(await call(viaQuery, 'team_chat_post', { text: 'hello there' }));
  closed(await call(viaQuery, 'team_chat_subscribe', {}));
  assert.deepEqual((await roomOf(other)).map((p) => p.text), ['their secret plan'], 'nothing posted there');

  // Its own team's room still works, and the lead of a team without a leader of its own is on it.
  ok(await call(chat, 'team_chat_post', { text: 'ours', teamId }));
  assert.deepEqual(ok<{ posts: Array<{ text: string }> }>(await call(chat, 'team_chat_subscribe', { teamId })).posts.map((p) => p.text), ['ours']);
  const lena = await connect(app, 'teamchat', await bindingFor(base, 'teamchat', 'lena'));
  ok(await call(lena, 'team_chat_post', { text: 'lead here', teamId }));
});

void test(`${S}: teamchat, memory and the brokered tools refuse another agent in a bound session and write nothing; equal or omitted is that agent`, async (t) => {
  const app = await svc(t);
  const { base, teamId, built } = app;
  const room = async () => (await get<{ posts: Array<{ authorAgentId: string; text: string }> }>(base, `/api/team-chat?teamId=${teamId}`)).posts;

  const chat = await connect(app, 'teamchat', await bindingFor(base, 'teamchat', 'bob'));
  refusedAs(await call(chat, 'team_chat_post', { text: 'from Lena', teamId, authorAgentId: 'lena' }), 'bob', 'authorAgentId');
  assert.deepEqual(await room(), [], 'no post');
  ok(await call(chat, 'team_chat_post', { text: 'named', teamId, authorAgentId: 'bob' }));
  ok(await call(chat, 'team_chat_post', { text: 'unnamed', teamId }));
  assert.deepEqual((await room()).map((p) => [p.authorAgentId, p.text]), [['bob', 'named'], ['bob', 'unnamed']]);

  const memory = await connect(app, 'memory', await bindingFor(base, 'memory', 'bob'));
  refusedAs(await call(memory, 'memory_save', { content: 'as Lena', agentId: 'lena' }), 'bob', 'agentId');
  refusedAs(await call(memory, 'memory_search', { query: 'anything', agentId: 'lena' }), 'bob', 'agentId');
  ok(await call(memory, 'memory_save', { content: 'named', agentId: 'bob' }));
  ok(await call(memory, 'memory_save', { content: 'unnamed' }));
  const { memories } = ok<{ memories: Array<{ content: string; agentId: string }> }>(await call(memory, 'memory_browse', {}));
  assert.deepEqual(memories.map((m) => [m.content, m.agentId]).sort(), [['named', 'bob'], ['unnamed', 'bob']]);

  const audit = () => built.runtime.deps.db.prepare("SELECT agent_id FROM tool_audit WHERE tool_name = 'echo'").pluck().all();
  const tools = await connect(app, 'tools', await bindingFor(base, 'tools', 'bob'));
  refusedAs(await call(tools, 'echo', { text: 'hi', agentId: 'lena' }), 'bob', 'agentId');
  assert.deepEqual(audit(), [], 'the refused call never reached the broker');
  for (const args of [{ text: 'named', agentId: 'bob' }, { text: 'unnamed' }]) {
    const r = await call(tools, 'echo', args);
    assert.deepEqual([r.isError ?? false, (r.content[0] as { text: string }).text], [false, args.text]);
  }
  assert.deepEqual(audit(), ['bob', 'bob', 'bob', 'bob'], 'two calls, before and after, as the bound agent');
  // An anonymous session is no one: an agentId argument is not checked, and not used either.
  const anonymous = await connect(app, 'tools');
  assert.notEqual((await call(anonymous, 'echo', { text: 'hi', agentId: 'lena' })).isError, true);
});

void test('Issue 30 #3: a task created through the tasks MCP server has origin mcp, with or without a binding; one made through POST /api/tasks has api, whatever its body says', async (t) => {
  const app = await svc(t);
  const { base, teamId } = app;
  const anonymous = await connect(app, 'tasks');
  const viaMcp = ok<{ task: Task }>(await call(anonymous, 'create_task', { title: 'from the spec snippet', teamId, assigneeAgentId: 'bob' })).task;
  assert.deepEqual([viaMcp.createdByAgentId, viaMcp.origin], [null, 'mcp']);

  const res = await fetch(`${base}/api/tasks`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'from a person', teamId, assigneeAgentId: 'bob', origin: 'mcp' }),
  });
  assert.equal(res.status, 200);
  const viaApi = ((await res.json()) as { task: Task }).task;
  assert.deepEqual([viaApi.createdByAgentId, viaApi.origin], [null, 'api']);

  const listed = (await get<{ tasks: Task[] }>(base, `/api/tasks?teamId=${teamId}`)).tasks;
  assert.deepEqual(listed.map((x) => [x.id, x.origin]), [[viaMcp.id, 'mcp'], [viaApi.id, 'api']]);
  assert.equal((await get<{ task: Task }>(base, `/api/tasks/${viaMcp.id}`)).task.origin, 'mcp');
});
