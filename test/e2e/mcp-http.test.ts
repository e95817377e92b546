// Spec "Tools broker and MCP → MCP transport" on real sockets: svc started as
// a child process on a loopback port, the real MCP SDK Client over
// StreamableHTTPClientTransport, raw fetch for the error cases.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SUBSCRIBE_WAIT_MAX_MS } from '../../shared/mcp/teamchat-server.ts';
import { startServer, stopAfter } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const NO_SESSION = 'Bad Request: No valid session ID provided. Send an initialize request first.';
const INVALID_SESSION = 'Bad Request: Invalid or missing session ID.';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

async function connect(
  t: TestContext, base: string, server: string, query = '', headers: Record<string, string> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/${server}${query}`), { requestInit: { headers } });
  const client = new Client({ name: 'svc-test', version: '0.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, transport };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The JSON a successful tool call carries as text. */
function ok<T = Record<string, unknown>>(r: CallToolResult): T {
  assert.notEqual(r.isError, true, `tool failed: ${JSON.stringify(r.content)}`);
  const first = r.content[0];
  assert.equal(first?.type, 'text');
  return JSON.parse((first as { text: string }).text) as T;
}

function errText(r: CallToolResult): string {
  assert.equal(r.isError, true, `expected an error result: ${JSON.stringify(r.content)}`);
  return (r.content[0] as { text: string }).text;
}

async function rawInit(base: string, server: string, query = '', headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/api/mcp/${server}${query}`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INIT) });
}

/** The binding header an operator pastes: minted by GET /api/mcp/config?agentId= (the cli-a http snippet's structured form). */
async function bindingFor(base: string, server: string, agentId: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/mcp/config?server=${server}&agentId=${encodeURIComponent(agentId)}`);
  assert.equal(res.status, 200);
  const { config } = (await res.json()) as { config: { structured: { headers: Record<string, string> } } };
  const token = config.structured.headers['X-Svc-Mcp-Binding'];
  assert.ok(token);
  return { 'X-Svc-Mcp-Binding': token };
}

type Approval = { id: string; toolName: string; agentId: string | null };

function pendingApproval(base: string, toolName: string): Promise<Approval> {
  return waitFor(
    async () => ((await (await fetch(`${base}/api/tools/approvals`)).json()) as { approvals: Approval[] }).approvals.find((a) => a.toolName === toolName),
    { what: `a pending ${toolName} approval` },
  );
}

async function resolveVia(base: string, id: string, decision: string): Promise<void> {
  const r = await fetch(`${base}/api/tools/approvals/${id}/resolve`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision }),
  });
  assert.equal(r.status, 200);
}

async function expectRpc400(r: Response, message: string, status = 400): Promise<void> {
  assert.equal(r.status, status);
  assert.deepEqual(await r.json(), { jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

interface Task { id: string; status: string; assigneeAgentId: string | null; title: string }
interface Post { id: number; room: string; authorAgentId: string; text: string }

void test('Tools broker and MCP: Streamable HTTP sessions, tasks and teamchat tools against a real server', async (t) => {
  const srv = stopAfter(t, await startServer());
  const base = srv.base;

  await t.test('Tools broker and MCP: initialize answers with a new mcp-session-id header; the SDK client lists every server\'s tools', async (t) => {
    const r = await rawInit(base, 'tasks');
    assert.equal(r.status, 200);
    const id = r.headers.get('mcp-session-id');
    assert.match(id ?? '', /^[0-9a-f-]{36}$/);
    assert.match(await r.text(), /"serverInfo":\{"name":"svc-tasks"/);
    const del = await fetch(`${base}/api/mcp/tasks`, { method: 'DELETE', headers: { 'mcp-session-id': id as string } });
    assert.equal(del.status, 200);

    const { client, transport } = await connect(t, base, 'tasks');
    assert.ok(transport.sessionId);
    const names = (await client.listTools()).tools.map((x) => x.name).sort();
    assert.deepEqual(names, ['add_comment', 'claim_task', 'create_task', 'list_tasks']);
    const chat = await connect(t, base, 'teamchat');
    assert.deepEqual((await chat.client.listTools()).tools.map((x) => x.name).sort(), ['team_chat_post', 'team_chat_subscribe']);
    const memory = await connect(t, base, 'memory');
    assert.equal(memory.client.getServerVersion()?.name, 'svc-memory');
    assert.deepEqual((await memory.client.listTools()).tools.map((x) => x.name).sort(), ['memory_browse', 'memory_save', 'memory_search']);
    const tools = await connect(t, base, 'tools');
    assert.equal(tools.client.getServerVersion()?.name, 'svc-tools');
    // web_search is unavailable without SVC_SEARCH_URL, so the model is not offered it.
    assert.deepEqual((await tools.client.listTools()).tools.map((x) => x.name).sort(), ['delete_path', 'echo', 'note']);
  });

  await t.test('Tools broker and MCP: memory tools save, search and browse within the session\'s bound scope; arguments cannot widen it', async (t) => {
    const { client } = await connect(t, base, 'memory', '?scopeTeamId=red&scopeAgentId=alice');
    const saved = ok<{ memory: { id: string; teamId: string; agentId: string } }>(
      await call(client, 'memory_save', { content: 'the staging database is rebuilt every night', title: 'staging', tags: ['ops'] }),
    );
    assert.deepEqual([saved.memory.teamId, saved.memory.agentId], ['red', 'alice']);
    assert.match(errText(await call(client, 'memory_save', { content: 'x', teamId: 'blue' })), /bound to its memory scope: teamId/);
    assert.match(errText(await call(client, 'memory_search', { query: 'staging', agentId: 'bob' })), /bound to its memory scope: agentId/);

    // Another team's memory, saved through an unbound session, stays out of the bound session's reads.
    const other = await connect(t, base, 'memory');
    ok(await call(other.client, 'memory_save', { content: 'the staging cluster of team blue', teamId: 'blue', agentId: 'bob' }));
    const found = ok<{ mode: string; hits: Array<{ id: string; snippet: string }> }>(await call(client, 'memory_search', { query: 'staging database' }));
    assert.equal(found.mode, 'fts');
    assert.deepEqual(found.hits.map((h) => h.id), [saved.memory.id]);
    const page = ok<{ memories: Array<{ id: string }>; nextCursor: string | null }>(await call(client, 'memory_browse', { limit: 10 }));
    assert.deepEqual([page.memories.map((m) => m.id), page.nextCursor], [[saved.memory.id], null]);
    // Query syntax is plain text, never an FTS5 error.
    const odd = ok<{ hits: Array<{ id: string }> }>(await call(client, 'memory_search', { query: 'staging" OR NEAR(* -' }));
    assert.deepEqual(odd.hits.map((h) => h.id), [saved.memory.id]);
  });

  await t.test('Tools broker and MCP: tools run through the broker as the bound agent; delete_path waits for the dashboard\'s approval', async (t) => {
    const { client } = await connect(t, base, 'tools', '', await bindingFor(base, 'tools', 'agent-9'));
    const echoed = await call(client, 'echo', { text: 'over http' });
    assert.deepEqual([echoed.isError ?? false, (echoed.content[0] as { text: string }).text], [false, 'over http']);
    assert.notEqual((await call(client, 'note', { text: 'ship it on monday' })).isError, true);
    // The SDK checks arguments against the tool's input schema before the broker sees them.
    assert.match(errText(await call(client, 'echo', { text: 42 })), /Invalid arguments for tool echo/);

    mkdirSync(join(srv.home, 'workspace'), { recursive: true });
    writeFileSync(join(srv.home, 'workspace', 'keep.txt'), 'precious');
    const pending = call(client, 'delete_path', { path: 'keep.txt' });
    const approval = await pendingApproval(base, 'delete_path');
    assert.equal(approval.agentId, 'agent-9');
    const denied = await fetch(`${base}/api/tools/approvals/${approval.id}/resolve`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'deny' }),
    });
    assert.equal(denied.status, 200);
    assert.match(errText(await pending), /delete_path: denied by a human/);
    assert.ok(existsSync(join(srv.home, 'workspace', 'keep.txt')), 'a denied delete deletes nothing');
    const audit = (await (await fetch(`${base}/api/tools/audit?limit=500`)).json()) as { audit: Array<{ toolName: string; phase: string; agentId: string; decision: string | null }> };
    const rows = audit.audit.filter((r) => r.agentId === 'agent-9').map((r) => [r.toolName, r.phase, r.decision]);
    assert.deepEqual(rows.reverse(), [
      ['echo', 'before', 'allow'], ['echo', 'after', null],
      ['note', 'before', 'allow'], ['note', 'after', null],
      ['delete_path', 'before', 'require_approval'], ['delete_path', 'after', null],
    ]);
  });

  await t.test('Security (issue 15 #6): the tools server refuses ?agentId= and unknown bindings; allow_always is sticky for the bound agent only', async (t) => {
    for (const q of ['?agentId=agent-9', '?taskId=t', '?tenantId=n']) {
      const key = q.slice(1, q.indexOf('='));
      await expectRpc400(await rawInit(base, 'tools', q), `Bad Request: ${key} no longer binds an identity (any caller could choose it): ` +
        'ask svc for a binding (GET /api/mcp/config?server=tools&agentId=<agent>) and send it in the X-Svc-Mcp-Binding header');
    }
    await expectRpc400(await rawInit(base, 'tools', '', { 'X-Svc-Mcp-Binding': 'svc_mcp_' + 'x'.repeat(43) }),
      'Bad Request: X-Svc-Mcp-Binding is not a binding svc knows (unknown or revoked): ask svc for a new one');

    const ws = join(srv.home, 'workspace');
    mkdirSync(ws, { recursive: true });
    for (const f of ['s1.txt', 's2.txt', 's3.txt']) writeFileSync(join(ws, f), 'x');
    const bound = await connect(t, base, 'tools', '', await bindingFor(base, 'tools', 'sticky-agent'));
    const first = call(bound.client, 'delete_path', { path: 's1.txt' });
    const row = await pendingApproval(base, 'delete_path');
    assert.equal(row.agentId, 'sticky-agent');
    await resolveVia(base, row.id, 'allow_always');
    assert.notEqual((await first).isError, true);
    // The same agent through another minted binding (a new session) is not asked again.
    const again = await connect(t, base, 'tools', '', await bindingFor(base, 'tools', 'sticky-agent'));
    assert.notEqual((await call(again.client, 'delete_path', { path: 's2.txt' })).isError, true);
    assert.equal(existsSync(join(ws, 's2.txt')), false);
    // An anonymous session is asked (and denied here): it cannot ride the agent's allow_always.
    const anon = await connect(t, base, 'tools');
    const asked = call(anon.client, 'delete_path', { path: 's3.txt' });
    const anonRow = await pendingApproval(base, 'delete_path');
    assert.equal(anonRow.agentId, null);
    await resolveVia(base, anonRow.id, 'deny');
    assert.match(errText(await asked), /denied by a human/);
    assert.ok(existsSync(join(ws, 's3.txt')));
  });

  await t.test('Tools broker and MCP: tasks tools create, list, claim (a second claim loses with the route\'s rule) and comment', async (t) => {
    const { client } = await connect(t, base, 'tasks');
    const { task } = ok<{ task: Task }>(await call(client, 'create_task', { title: '  write the report ', teamId: 'team-a', createdByAgentId: 'lead' }));
    assert.equal(task.title, 'write the report');
    assert.equal(task.status, 'todo');

    const listed = ok<{ tasks: Task[] }>(await call(client, 'list_tasks', { teamId: 'team-a' }));
    assert.deepEqual(listed.tasks.map((x) => x.id), [task.id]);
    assert.deepEqual(ok<{ tasks: Task[] }>(await call(client, 'list_tasks', { teamId: 'team-a', status: 'done' })).tasks, []);

    const claimed = ok<{ task: Task }>(await call(client, 'claim_task', { taskId: task.id, agentId: 'alice' }));
    assert.equal(claimed.task.status, 'in_progress');
    assert.equal(claimed.task.assigneeAgentId, 'alice');

    // A second agent, in its own session, loses: the route's 409 message, not retried.
    const other = await connect(t, base, 'tasks');
    const lost = await call(other.client, 'claim_task', { taskId: task.id, agentId: 'bob' });
    assert.equal(errText(lost), 'task already claimed');
    assert.equal((lost.structuredContent as { status: number }).status, 409);
    const viaRoute = await fetch(`${base}/api/tasks/${task.id}/claim`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agentId: 'bob' }),
    });
    assert.equal(viaRoute.status, 409);
    assert.deepEqual(await viaRoute.json(), { error: 'task already claimed' });

    const { comment } = ok<{ comment: { taskId: string; body: string; authorAgentId: string } }>(
      await call(client, 'add_comment', { taskId: task.id, body: 'halfway there', authorAgentId: 'alice' }),
    );
    assert.deepEqual([comment.taskId, comment.body, comment.authorAgentId], [task.id, 'halfway there', 'alice']);
    const comments = (await (await fetch(`${base}/api/tasks/${task.id}/comments`)).json()) as { comments: unknown[] };
    assert.equal(comments.comments.length, 1);

    assert.equal(errText(await call(client, 'add_comment', { taskId: 'no-such-task', body: 'x' })), 'task not found');
    assert.equal(errText(await call(client, 'claim_task', { taskId: 'no-such-task', agentId: 'a' })), 'task not found');
    // Input outside the schema is refused before anything is written.
    assert.equal((await call(client, 'create_task', { title: '   ' })).isError, true);
    assert.equal((await call(client, 'create_task', { title: 'x'.repeat(501) })).isError, true);
    assert.equal(ok<{ tasks: Task[] }>(await call(client, 'list_tasks', {})).tasks.length, 1);
  });

  await t.test('Tools broker and MCP: a bound teamchat session ignores a spoofed room and author and logs team_chat_post as the bound author', async (t) => {
    const { client } = await connect(t, base, 'teamchat', '?roomTeamId=red&postAuthorAgentId=alice');
    const { post, bound } = ok<{ post: Post; bound: boolean }>(
      await call(client, 'team_chat_post', { text: 'hello team', teamId: 'blue', authorAgentId: 'mallory' }),
    );
    assert.equal(bound, true);
    assert.equal(post.room, 'team:red');
    assert.equal(post.authorAgentId, 'alice');

    // The spoofed room is empty; the bound subscriber reads its own room whatever teamId says.
    const unbound = await connect(t, base, 'teamchat');
    const blue = ok<{ posts: Post[] }>(await call(unbound.client, 'team_chat_subscribe', { teamId: 'blue' }));
    assert.deepEqual(blue.posts, []);
    const mine = ok<{ room: string; posts: Post[]; cursor: number }>(await call(client, 'team_chat_subscribe', { teamId: 'blue' }));
    assert.equal(mine.room, 'team:red');
    assert.deepEqual(mine.posts.map((p) => [p.text, p.authorAgentId]), [['hello team', 'alice']]);
    assert.equal(mine.cursor, post.id);

    const feed = (await (await fetch(`${base}/api/obs/events?kinds=team_chat_post`)).json()) as {
      events: Array<{ kind: string; agentId: string; teamId: string; data: { postId: number; preview: string } | string }>;
    };
    assert.equal(feed.events.length, 1);
    const ev = feed.events[0]!;
    assert.equal(ev.agentId, 'alice');
    assert.equal(ev.teamId, 'red');
    const data = typeof ev.data === 'string' ? (JSON.parse(ev.data) as { postId: number; preview: string }) : ev.data;
    assert.equal(data.postId, post.id);
    assert.equal(data.preview, 'hello team');
  });

  await t.test('Tools broker and MCP: an unbound teamchat session takes room and author from arguments; half a binding is unbound', async (t) => {
    const { client } = await connect(t, base, 'teamchat', '?roomTeamId=green');
    assert.match(errText(await call(client, 'team_chat_post', { text: 'who am I' })), /teamId and authorAgentId are required/);
    assert.match(errText(await call(client, 'team_chat_subscribe', {})), /teamId is required/);
    const a = ok<{ post: Post; bound: boolean }>(await call(client, 'team_chat_post', { text: 'one', teamId: 'green', authorAgentId: 'bob' }));
    assert.equal(a.bound, false);
    assert.deepEqual([a.post.room, a.post.authorAgentId], ['team:green', 'bob']);
    ok(await call(client, 'team_chat_post', { text: 'two', teamId: 'green', authorAgentId: 'carol' }));

    const first = ok<{ posts: Post[]; cursor: number; hasMore: boolean }>(await call(client, 'team_chat_subscribe', { teamId: 'green', limit: 1 }));
    assert.deepEqual(first.posts.map((p) => p.text), ['one']);
    assert.equal(first.hasMore, true);
    const rest = ok<{ posts: Post[]; cursor: number }>(await call(client, 'team_chat_subscribe', { teamId: 'green', after: first.cursor }));
    assert.deepEqual(rest.posts.map((p) => p.text), ['two']);
    const none = ok<{ posts: Post[]; cursor: number }>(await call(client, 'team_chat_subscribe', { teamId: 'green', after: rest.cursor }));
    assert.deepEqual(none.posts, []);
    assert.equal(none.cursor, rest.cursor);

    // waitMs: the read waits for the next post instead of answering empty.
    // The post goes out only after a whole new session's handshake with the server, all begun after the read was sent.
    let answered = false;
    const waiting = call(client, 'team_chat_subscribe', { teamId: 'green', after: rest.cursor, waitMs: SUBSCRIBE_WAIT_MAX_MS }).finally(() => (answered = true));
    const other = await connect(t, base, 'teamchat');
    assert.equal(answered, false, 'the read has not answered empty');
    ok(await call(other.client, 'team_chat_post', { text: 'three', teamId: 'green', authorAgentId: 'dan' }));
    assert.deepEqual(ok<{ posts: Post[] }>(await waiting).posts.map((p) => p.text), ['three']);

    // Unbound posts write no event (only the bound session's one exists).
    const feed = (await (await fetch(`${base}/api/obs/events?kinds=team_chat_post`)).json()) as { events: unknown[] };
    assert.equal(feed.events.length, 1);
  });

  await t.test('Security (issue 15 #6): a minted binding names the memory scope and the teamchat author', async (t) => {
    const memory = await connect(t, base, 'memory', '', await bindingFor(base, 'memory', 'mem-agent'));
    const saved = ok<{ memory: { agentId: string } }>(await call(memory.client, 'memory_save', { content: 'bound by a minted binding' }));
    assert.equal(saved.memory.agentId, 'mem-agent');
    assert.match(errText(await call(memory.client, 'memory_save', { content: 'x', agentId: 'someone-else' })), /bound to agent mem-agent: agentId cannot name another agent/);
    await expectRpc400(await rawInit(base, 'memory', '?scopeAgentId=someone-else', await bindingFor(base, 'memory', 'mem-agent')),
      "Bad Request: scopeAgentId conflicts with the session's binding: leave it out, the binding sets it");

    // An agent's bound session posts in its own team's room (issue 33 #6): the team and its member, as a person creates them.
    const json = { 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/teams`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Violet', icon: 'v', color: 'violet' }) });
    const violet = ((await created.json()) as { team: { id: string } }).team.id;
    const member = await fetch(`${base}/api/agents`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'chat-agent', name: 'Chat agent', runtime: 'native', teamId: violet }) });
    assert.equal(member.status, 200, await member.clone().text());
    const chat = await connect(t, base, 'teamchat', `?roomTeamId=${violet}`, await bindingFor(base, 'teamchat', 'chat-agent'));
    const { post, bound } = ok<{ post: Post; bound: boolean }>(await call(chat.client, 'team_chat_post', { text: 'hi' }));
    assert.deepEqual([bound, post.room, post.authorAgentId], [true, `team:${violet}`, 'chat-agent']);
    // Issue 30 #2: the agent of a minted binding is refused another author (a query-bound session ignores it, above).
    assert.match(errText(await call(chat.client, 'team_chat_post', { text: 'hi', authorAgentId: 'mallory' })), /bound to agent chat-agent: authorAgentId/);
  });

  await t.test('Tools broker and MCP: session errors are JSON-RPC -32000 at HTTP 400 with the spec\'s messages', async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${base}/api/mcp/tasks`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });
    const listReq = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    await expectRpc400(await post({}, listReq), NO_SESSION);
    await expectRpc400(await post({ 'mcp-session-id': 'no-such-session' }, listReq), NO_SESSION);
    for (const method of ['GET', 'DELETE']) {
      await expectRpc400(await fetch(`${base}/api/mcp/tasks`, { method, headers: { accept: 'text/event-stream' } }), INVALID_SESSION);
      await expectRpc400(
        await fetch(`${base}/api/mcp/tasks`, { method, headers: { accept: 'text/event-stream', 'mcp-session-id': 'nope' } }),
        INVALID_SESSION,
      );
    }
    // A session belongs to its server: a tasks session id on /api/mcp/teamchat is unknown there.
    const init = await rawInit(base, 'tasks');
    const id = init.headers.get('mcp-session-id') as string;
    await init.text();
    await expectRpc400(
      await fetch(`${base}/api/mcp/teamchat`, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': id }, body: JSON.stringify(listReq) }),
      NO_SESSION,
    );
    // An unknown server name is an ordinary 404.
    const nf = await fetch(`${base}/api/mcp/nope`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
    assert.equal(nf.status, 404);
    assert.deepEqual(await nf.json(), { error: 'not found' });
    // A bad binding value is refused at initialize.
    await expectRpc400(await rawInit(base, 'teamchat', `?roomTeamId=${'x'.repeat(201)}&postAuthorAgentId=a`),
      'Bad Request: invalid binding parameter roomTeamId: expected one id of 1 to 200 characters');
  });

  await t.test('Tools broker and MCP: DELETE tears the session down; reusing its id is a 400', async () => {
    const init = await rawInit(base, 'teamchat');
    const id = init.headers.get('mcp-session-id') as string;
    await init.text();
    const notified = await fetch(`${base}/api/mcp/teamchat`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    assert.equal(notified.status, 202);
    const del = await fetch(`${base}/api/mcp/teamchat`, { method: 'DELETE', headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } });
    assert.equal(del.status, 200);
    await expectRpc400(
      await fetch(`${base}/api/mcp/teamchat`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }),
      }),
      NO_SESSION,
    );
    await expectRpc400(await fetch(`${base}/api/mcp/teamchat`, { method: 'DELETE', headers: { 'mcp-session-id': id } }), INVALID_SESSION);
  });
});

void test('Tools broker and MCP: at most SVC_MCP_MAX_SESSIONS sessions are open; idle ones are reaped after SVC_MCP_SESSION_IDLE_MS', async (t) => {
  const srv = stopAfter(t, await startServer({ env: { SVC_MCP_MAX_SESSIONS: '2', SVC_MCP_SESSION_IDLE_MS: '1000' } }));
  const ids: string[] = [];
  for (const server of ['tasks', 'teamchat']) {
    const r = await rawInit(srv.base, server);
    assert.equal(r.status, 200);
    ids.push(r.headers.get('mcp-session-id') as string);
    await r.text();
  }
  const third = await rawInit(srv.base, 'memory');
  await expectRpc400(third, 'Service Unavailable: too many open MCP sessions (limit 2). Close an unused session (DELETE) or retry later.', 503);

  // Neither session is used again: once the reaper has closed both for being
  // idle past the bound, two new sessions fit under the cap. (Asked by opening
  // sessions, never by using the idle ones, which would keep them alive; the
  // oldest idle session goes first, so two new ones mean both old ones went.)
  const fresh: string[] = [];
  await waitFor(async () => {
    const r = await rawInit(srv.base, 'memory');
    if (r.status === 200) fresh.push(r.headers.get('mcp-session-id') as string);
    await r.body?.cancel();
    return fresh.length === 2;
  }, { what: 'both idle sessions to be reaped' });
  for (const [i, id] of ids.entries()) {
    await expectRpc400(
      await fetch(`${srv.base}/api/mcp/${i === 0 ? 'tasks' : 'teamchat'}`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
      }),
      NO_SESSION,
    );
  }
  // Closed (or, idle meanwhile, already reaped): either way their slots are free for the next client.
  for (const id of fresh) await (await fetch(`${srv.base}/api/mcp/memory`, { method: 'DELETE', headers: { 'mcp-session-id': id } })).body?.cancel();

  // A session in use is not reaped: an SDK client calling back to back for twice the bound outlives it.
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.base}/api/mcp/tasks`));
  const client = new Client({ name: 'busy', version: '0' });
  await client.connect(transport);
  t.after(() => client.close());
  for (const busyUntil = Date.now() + 2 * 1000; Date.now() < busyUntil;) await client.listTools();
  // Closed before the server stops: an open GET stream would hold its shutdown for the drain deadline.
  await client.close();
});
