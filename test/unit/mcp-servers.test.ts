// Spec "Tools broker and MCP": the four server factories over the SDK's
// in-memory transport. Fuzzed tool calls never crash a server (each answers
// a result or an MCP error and the server keeps answering), the binding is
// read from the attach query or the environment, and snippet quoting holds.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';
import { svcPaths } from '../../shared/paths.ts';
import { MASK } from '../../shared/redact.ts';
import { saveSettings } from '../../shared/settings/index.ts';
import { createAgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { BindingError, bindingFromEnv, bindingFromQuery, httpSessionBinding, stdioSessionBinding } from '../../shared/mcp/binding.ts';
import { mcpAttachConfig, shellWord } from '../../shared/mcp/config-snippet.ts';
import { createMcpContext, stdioRedactor } from '../../shared/mcp/context.ts';
import { listToolNames } from '../../shared/mcp/probe.ts';
import { MCP_SERVER_FACTORIES } from '../../shared/mcp/servers.ts';
import type { McpBinding, McpServerName } from '../../shared/mcp/types.ts';
import { removeHome, tempHome, testEnv } from '../helpers/server.ts';
import { connectInMemory } from '../helpers/mcp.ts';

function context(t: TestContext) {
  const home = tempHome('svc-mcp-unit-');
  const config = loadConfig(testEnv(home, { LOG_LEVEL: 'silent' }));
  const ctx = createMcpContext(config, createLogger({ level: 'silent' }), stdioRedactor(config));
  t.after(() => {
    ctx.close();
    removeHome(home);
  });
  return ctx;
}

async function connect(t: TestContext, ctx: ReturnType<typeof context>, name: McpServerName, binding: McpBinding = {}): Promise<Client> {
  return connectInMemory(t, MCP_SERVER_FACTORIES[name](ctx, binding), 'fuzz');
}

const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', 'todo', 'done', 'in_progress', 'team-1', 'agent-1', '__proto__', 'x'.repeat(9000)),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }));
const KEYS = ['title', 'description', 'teamId', 'assigneeAgentId', 'createdByAgentId', 'parentTaskId', 'runtime', 'dependsOn',
  'taskId', 'agentId', 'body', 'authorAgentId', 'status', 'limit', 'text', 'after', 'waitMs'];
const args = fc.oneof(
  fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 }),
  fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 4 }),
);

void test('Tools broker and MCP: fuzzed tool arguments never crash a server (each call is a result or an MCP error)', async (t) => {
  const ctx = context(t);
  const clients = {
    tasks: await connect(t, ctx, 'tasks'),
    teamchat: await connect(t, ctx, 'teamchat'),
    boundChat: await connect(t, ctx, 'teamchat', { roomTeamId: 'r', postAuthorAgentId: 'a' }),
  };
  const tools = {
    tasks: ['list_tasks', 'create_task', 'claim_task', 'add_comment', 'no_such_tool'],
    teamchat: ['team_chat_post', 'team_chat_subscribe', 'no_such_tool'],
    boundChat: ['team_chat_post', 'team_chat_subscribe'],
  };
  const outcomes = { results: 0, errors: 0, rpcErrors: 0 };
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('tasks', 'teamchat', 'boundChat') as fc.Arbitrary<keyof typeof clients>, fc.nat(), args, async (which, pick, a) => {
      const list = tools[which];
      const name = list[pick % list.length] as string;
      // waitMs would only slow the run down: a fuzzed wait is capped at a few ms.
      if (typeof a.waitMs === 'number') a.waitMs = Math.min(Math.abs(a.waitMs), 5);
      try {
        const r = (await clients[which].callTool({ name, arguments: a })) as CallToolResult;
        assert.ok(Array.isArray(r.content), 'a result has content');
        if (r.isError) outcomes.errors++;
        else outcomes.results++;
      } catch (err) {
        assert.ok(err instanceof McpError, `not an MCP error: ${String(err)}`);
        outcomes.rpcErrors++;
      }
    }),
    { numRuns: 300 },
  );
  // Still alive and answering after all of that.
  for (const c of Object.values(clients)) assert.ok((await c.listTools()).tools.length > 0);
  assert.ok(outcomes.errors > 0 && outcomes.results > 0, JSON.stringify(outcomes));
});

void test('Tools broker and MCP: the probe lists each server\'s tools over an in-memory pair (a server with no tools yet answers with none)', async (t) => {
  const ctx = context(t);
  assert.deepEqual((await listToolNames(MCP_SERVER_FACTORIES.tasks, ctx)).sort(), ['add_comment', 'claim_task', 'create_task', 'list_tasks']);
  assert.deepEqual((await listToolNames(MCP_SERVER_FACTORIES.teamchat, ctx)).sort(), ['team_chat_post', 'team_chat_subscribe']);
  for (const name of ['memory', 'tools'] as const) assert.ok(Array.isArray(await listToolNames(MCP_SERVER_FACTORIES[name], ctx)));
});

void test('Tools broker and MCP: the session binding is read from the attach query (HTTP) or SVC_MCP_* variables (stdio)', () => {
  assert.deepEqual(bindingFromQuery('teamchat', { roomTeamId: ' red ', postAuthorAgentId: 'alice', access_token: 'x', other: 'y' }), {
    roomTeamId: 'red', postAuthorAgentId: 'alice',
  });
  assert.deepEqual(bindingFromQuery('teamchat', { roomTeamId: '' }), {});
  assert.deepEqual(bindingFromQuery('tasks', { roomTeamId: 'red' }), {}, 'tasks takes no binding');
  assert.deepEqual(bindingFromQuery('memory', { scopeTeamId: 't', scopeAgentId: 'a', scopeTenantId: 'n' }), {
    scopeTeamId: 't', scopeAgentId: 'a', scopeTenantId: 'n',
  });
  assert.throws(() => bindingFromQuery('teamchat', { roomTeamId: ['a', 'b'] }), BindingError);
  assert.throws(() => bindingFromQuery('memory', { scopeAgentId: 'x'.repeat(201) }), /scopeAgentId/);
  assert.deepEqual(bindingFromQuery('teamchat', undefined), {});
  const env: Record<string, string> = { SVC_MCP_ROOM_TEAM_ID: 'red', SVC_MCP_POST_AUTHOR_AGENT_ID: 'bob', SVC_MCP_SCOPE_TEAM_ID: 'm' };
  assert.deepEqual(bindingFromEnv('teamchat', (k) => env[k]), { roomTeamId: 'red', postAuthorAgentId: 'bob' });
  assert.deepEqual(bindingFromEnv('memory', (k) => env[k]), { scopeTeamId: 'm' });
  assert.deepEqual(bindingFromQuery('tools', { scopeTeamId: 'x', agentId: '' }), {}, 'tools takes no query binding; a blank retired parameter is absent');
});

void test('Security (issue 15 #6): the tools server\'s agentId, taskId and tenantId parameters no longer bind; the refusal says how to get a binding', () => {
  for (const key of ['agentId', 'taskId', 'tenantId']) {
    assert.throws(() => bindingFromQuery('tools', { [key]: 'a1' }), (err: Error) =>
      err instanceof BindingError && err.message.startsWith(`${key} no longer binds an identity`) &&
      err.message.includes('GET /api/mcp/config?server=tools&agentId=<agent>') && err.message.includes('X-Svc-Mcp-Binding header'));
  }
  assert.throws(() => bindingFromEnv('tools', (k) => ({ SVC_MCP_AGENT_ID: 'a2' })[k]), /SVC_MCP_AGENT_ID no longer binds an identity.*set SVC_MCP_BINDING/);
  // The memory and teamchat parameters are the spec's and stay.
  assert.deepEqual(bindingFromQuery('memory', { scopeAgentId: 'a' }), { scopeAgentId: 'a' });
});

void test('Security (issue 15 #6): a minted binding names the session\'s agent on every server; it is verified, and conflicting parameters are refused', (t) => {
  const ctx = context(t);
  const tokens = createAgentTokenStore(ctx.db);
  const { token, binding } = tokens.mint('mcp', { agentId: 'alice', teamId: 'red', taskId: 'task-1' });
  assert.match(token, /^svc_mcp_[A-Za-z0-9_-]{43}$/);
  const stored = ctx.db.prepare('SELECT * FROM agent_tokens').all() as Array<Record<string, unknown>>;
  assert.equal(stored.length, 1);
  assert.ok(!JSON.stringify(stored).includes(token.slice(8)), 'only the hash is stored');

  assert.deepEqual(httpSessionBinding('tools', {}, token, tokens), { agentId: 'alice', taskId: 'task-1', agentTokenId: binding.id });
  assert.deepEqual(httpSessionBinding('memory', { scopeTenantId: 'n' }, token, tokens), {
    scopeAgentId: 'alice', scopeTeamId: 'red', scopeTenantId: 'n', agentTokenId: binding.id,
  });
  assert.deepEqual(httpSessionBinding('teamchat', { roomTeamId: 'red' }, token, tokens), { roomTeamId: 'red', postAuthorAgentId: 'alice', agentTokenId: binding.id });
  assert.deepEqual(httpSessionBinding('tasks', {}, token, tokens), { creatorAgentId: 'alice', agentTokenId: binding.id });
  assert.deepEqual(stdioSessionBinding('tools', (k) => ({ SVC_MCP_BINDING: token })[k], tokens), { agentId: 'alice', taskId: 'task-1', agentTokenId: binding.id });
  assert.deepEqual(httpSessionBinding('tools', {}, undefined, tokens), {}, 'no header: anonymous');

  assert.throws(() => httpSessionBinding('memory', { scopeAgentId: 'bob' }, token, tokens), /scopeAgentId conflicts with the session's binding/);
  assert.throws(() => httpSessionBinding('teamchat', { postAuthorAgentId: 'bob' }, token, tokens), /postAuthorAgentId conflicts/);
  assert.throws(() => httpSessionBinding('tools', {}, 'svc_mcp_' + 'A'.repeat(43), tokens), /X-Svc-Mcp-Binding is not a binding svc knows/);
  assert.throws(() => httpSessionBinding('tools', {}, [token, token], tokens), /must be sent once/);
  assert.throws(() => stdioSessionBinding('tools', (k) => ({ SVC_MCP_BINDING: 'nope' })[k], tokens), /SVC_MCP_BINDING is not a binding svc knows/);
  assert.ok(tokens.revoke(binding.id));
  assert.throws(() => httpSessionBinding('tools', {}, token, tokens), /unknown or revoked/);
});

void test('Tools broker and MCP: attach snippets quote paths for the shell and TOML', () => {
  assert.equal(shellWord('/usr/lib/svc/tasks.js'), '/usr/lib/svc/tasks.js');
  assert.equal(shellWord("/it's here/x.js"), `'/it'\\''s here/x.js'`);
  const binDir = 'C:\\Program Files\\svc "mcp"';
  const c = mcpAttachConfig({ server: 'memory', runtime: 'cli-b', transport: 'stdio', baseUrl: 'http://127.0.0.1:1', binDir, dbPath: '/d b/svc.db', gated: false });
  const bin = join(binDir, 'memory.js');
  assert.equal(c.snippet, `[mcp_servers.svc-memory]\ncommand = "node"\nargs = [${JSON.stringify(bin)}]\nenv = { SVC_DB_PATH = "/d b/svc.db" }\n`);
  const gated = mcpAttachConfig({ server: 'tools', runtime: 'cli-b', transport: 'http', baseUrl: 'http://127.0.0.1:1', binDir, dbPath: '/x', gated: true });
  assert.equal(gated.snippet, '[mcp_servers.svc-tools]\nurl = "http://127.0.0.1:1/api/mcp/tools"\nhttp_headers = { Authorization = "Bearer <STUDIO_ACCESS_TOKEN>" }\n');
  // With a binding: the entry is named for the agent and carries the binding (header for http, variable for
  // stdio); even gated it carries no access-token placeholder, since the binding passes the gate on the MCP route.
  const binding = { token: 'svc_mcp_tok', agentId: 'team.lead/1' };
  const bound = mcpAttachConfig({ server: 'tools', runtime: 'cli-b', transport: 'http', baseUrl: 'http://127.0.0.1:1', binDir, dbPath: '/x', gated: true, binding });
  assert.equal(bound.snippet, '[mcp_servers.svc-tools-team_lead_1]\nurl = "http://127.0.0.1:1/api/mcp/tools"\nhttp_headers = { X-Svc-Mcp-Binding = "svc_mcp_tok" }\n');
  const boundStdio = mcpAttachConfig({ server: 'tools', runtime: 'cli-a', transport: 'stdio', baseUrl: 'http://127.0.0.1:1', binDir: '/b', dbPath: '/x', gated: true, binding });
  assert.equal(boundStdio.snippet, 'cli-a mcp add --transport stdio svc-tools-team_lead_1 --env SVC_DB_PATH=/x --env SVC_MCP_BINDING=svc_mcp_tok -- node /b/tools.js');
});

void test('Security (issue 15 #13): a stdio binary masks the gateway token svc resolves, in logs and stored events', (t) => {
  const home = tempHome('svc-mcp-redact-');
  t.after(() => removeHome(home));
  const config = loadConfig(testEnv(home, { LOG_LEVEL: 'silent' }));
  const gatewayToken = 'gw-literal-token-0123456789';
  saveSettings(svcPaths(config).settingsFile, { gatewayToken });
  const redactor = stdioRedactor(config);
  assert.equal(redactor.text(`connect with ${gatewayToken} now`), `connect with ${MASK} now`);
  const ctx = createMcpContext(config, createLogger({ level: 'silent' }), redactor);
  t.after(() => ctx.close());
  ctx.eventLog.append({ kind: 'tool_result', data: { note: `echo ${gatewayToken}` } });
  const stored = ctx.db.prepare('SELECT data FROM events').pluck().all() as string[];
  assert.equal(stored.length, 1);
  assert.ok(!stored[0]?.includes(gatewayToken), 'the stored row holds no gateway token');
});

void test('Team chat (issue 17 #4): a session bound to an agent creates tasks as that agent, on its team unless the call names one', async (t) => {
  const ctx = context(t);
  const team = ctx.domain.teams.create({ name: 'Crew', icon: '🚀', color: '#00ff00' });
  ctx.domain.agents.create({ id: 'lena', name: 'Lena', teamId: team.id, role: 'lead' });
  const bound = await connect(t, ctx, 'tasks', { creatorAgentId: 'lena', agentTokenId: 'token-of-lena' });
  const anonymous = await connect(t, ctx, 'tasks');
  const taskOf = (r: unknown) => JSON.parse(((r as CallToolResult).content[0] as { text: string }).text) as { task: { createdByAgentId: string | null; teamId: string | null } };
  const mine = taskOf(await bound.callTool({ name: 'create_task', arguments: { title: 'research', assigneeAgentId: 'bob' } }));
  assert.deepEqual([mine.task.createdByAgentId, mine.task.teamId], ['lena', team.id]);
  const elsewhere = taskOf(await bound.callTool({ name: 'create_task', arguments: { title: 'no team', teamId: null } }));
  assert.deepEqual([elsewhere.task.createdByAgentId, elsewhere.task.teamId], ['lena', null], 'an explicit null team is kept');
  const plain = taskOf(await anonymous.callTool({ name: 'create_task', arguments: { title: 'by a person' } }));
  assert.deepEqual([plain.task.createdByAgentId, plain.task.teamId], [null, null]);
});
