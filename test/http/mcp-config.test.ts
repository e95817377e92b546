// Spec "Tools broker and MCP → GET /api/mcp/config", the MCP transport's 500,
// and "Settings and health → mcpServersHealthy", through inject().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildTestApp } from '../helpers/app.ts';
import { buildApp } from '../../supervisor/http/app.ts';
import { createMcpHost } from '../../supervisor/services/mcp-sessions.ts';

const SERVERS = ['tasks', 'memory', 'tools', 'teamchat'] as const;
const RUNTIMES = ['cli-a', 'cli-b', 'gateway'] as const;
const TRANSPORTS = ['http', 'stdio'] as const;

interface AttachConfig { id: string; transport: string; snippet: string; structured: Record<string, unknown> }

void test('Tools broker and MCP: GET /api/mcp/config answers every server x runtime x transport with the spec\'s snippet forms', async (t) => {
  const binDir = '/opt/svc bins/mcp';
  const { app, runtime, config } = await buildTestApp(t, { env: { SVC_MCP_BIN_DIR: binDir } });
  runtime.setBoundPort(45_678);
  for (const server of SERVERS) {
    for (const rt of RUNTIMES) {
      for (const transport of TRANSPORTS) {
        const res = await app.inject(`/api/mcp/config?server=${server}&runtime=${rt}&transport=${transport}`);
        assert.equal(res.statusCode, 200, `${server} ${rt} ${transport}`);
        const body = res.json() as { ok: boolean; config: AttachConfig };
        assert.equal(body.ok, true);
        const c = body.config;
        const id = `svc-${server}`;
        const url = `http://127.0.0.1:45678/api/mcp/${server}`;
        const bin = join(binDir, `${server}.js`);
        assert.equal(c.id, id);
        assert.equal(c.transport, transport);
        const where = `${server}/${rt}/${transport}: ${c.snippet}`;
        if (transport === 'http') {
          assert.ok(c.snippet.includes(url), where);
          assert.ok(!c.snippet.includes(bin), where);
        } else {
          assert.ok(c.snippet.includes(bin) || c.snippet.includes(`'${bin}'`), where);
          assert.ok(c.snippet.includes(config.dbPath), `the stdio entry points the binary at the server's database: ${where}`);
        }
        if (rt === 'cli-a' && transport === 'http') {
          assert.equal(c.snippet, `cli-a mcp add --transport http ${id} ${url}`);
          assert.deepEqual(c.structured, { name: id, type: 'http', url });
        }
        if (rt === 'cli-a' && transport === 'stdio') {
          assert.equal(c.snippet, `cli-a mcp add --transport stdio ${id} --env SVC_DB_PATH=${config.dbPath} -- node '${bin}'`);
        }
        if (rt === 'cli-b' && transport === 'stdio') {
          assert.equal(
            c.snippet,
            `[mcp_servers.${id}]\ncommand = "node"\nargs = [${JSON.stringify(bin)}]\nenv = { SVC_DB_PATH = ${JSON.stringify(config.dbPath)} }\n`,
          );
          assert.deepEqual(c.structured, { mcp_servers: { [id]: { command: 'node', args: [bin], env: { SVC_DB_PATH: config.dbPath } } } });
        }
        if (rt === 'cli-b' && transport === 'http') {
          assert.equal(c.snippet, `[mcp_servers.${id}]\nurl = "${url}"\n`);
        }
        if (rt === 'gateway') {
          const entry = transport === 'http'
            ? { transport: 'streamable-http', url }
            : { transport: 'stdio', command: 'node', args: [bin], env: { SVC_DB_PATH: config.dbPath } };
          assert.deepEqual(c.structured, { mcp: { servers: { [id]: entry } } });
          assert.deepEqual(JSON.parse(c.snippet), c.structured);
        }
      }
    }
  }
  // Defaults: tasks, cli-a, http.
  const def = (await app.inject('/api/mcp/config')).json() as { config: AttachConfig };
  assert.equal(def.config.snippet, 'cli-a mcp add --transport http svc-tasks http://127.0.0.1:45678/api/mcp/tasks');
});

void test('Tools broker and MCP: GET /api/mcp/config refuses an unknown server, runtime or transport with 400', async (t) => {
  const { app } = await buildTestApp(t);
  const cases: Array<[string, string]> = [
    ['server=nope', 'unknown server: nope'],
    ['server=', 'unknown server: '],
    ['server=tasks&server=memory', 'unknown server: tasks,memory'],
    ['runtime=cli-z', 'unknown runtime: cli-z'],
    ['transport=ws', 'unknown transport: ws'],
  ];
  for (const [q, error] of cases) {
    const res = await app.inject(`/api/mcp/config?${q}`);
    assert.equal(res.statusCode, 400, q);
    assert.deepEqual(res.json(), { error }, q);
  }
});

void test('Security (issue 15 #6): GET /api/mcp/config?agentId= mints a binding for that agent and puts it in the snippet (header for http, SVC_MCP_BINDING for stdio)', async (t) => {
  const { app, runtime, config } = await buildTestApp(t);
  runtime.setBoundPort(45_678);
  const tokens = () => runtime.deps.db.prepare('SELECT agent_id AS agentId, team_id AS teamId, token_sha256 AS hash FROM agent_tokens ORDER BY rowid').all() as Array<{ agentId: string; teamId: string | null; hash: string }>;
  await app.inject('/api/mcp/config?server=tools');
  assert.deepEqual(tokens(), [], 'no agentId: nothing is minted');

  const res = await app.inject('/api/mcp/config?server=tools&runtime=gateway&agentId=researcher&teamId=red');
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  const c = (res.json() as { config: AttachConfig }).config;
  assert.equal(c.id, 'svc-tools-researcher');
  const entry = (c.structured as { mcp: { servers: Record<string, { transport: string; url: string; headers: Record<string, string> }> } }).mcp.servers['svc-tools-researcher'];
  assert.ok(entry);
  assert.deepEqual([entry.transport, entry.url], ['streamable-http', 'http://127.0.0.1:45678/api/mcp/tools']);
  const token = entry.headers['X-Svc-Mcp-Binding'] ?? '';
  assert.match(token, /^svc_mcp_[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(JSON.parse(c.snippet), c.structured);
  const [row] = tokens();
  assert.deepEqual([row?.agentId, row?.teamId], ['researcher', 'red']);
  assert.ok(row && !row.hash.includes(token) && row.hash.length === 64, 'only the SHA-256 is stored');

  const stdio = (await app.inject('/api/mcp/config?server=memory&runtime=cli-b&transport=stdio&agentId=researcher')).json() as { config: AttachConfig };
  const env = (stdio.config.structured as { mcp_servers: Record<string, { env: Record<string, string> }> }).mcp_servers['svc-memory-researcher']?.env;
  assert.equal(env?.SVC_DB_PATH, config.dbPath);
  assert.match(env?.SVC_MCP_BINDING ?? '', /^svc_mcp_/);
  assert.notEqual(env?.SVC_MCP_BINDING, token, 'each call mints a new binding');
  assert.equal(tokens().length, 2);

  const cases: Array<[string, string]> = [
    ['agentId=', 'invalid agentId: must not be blank'],
    ['agentId=a%20b', 'invalid agentId: must not hold spaces or control characters'],
    ['agentId=a&agentId=b', 'agentId must be given once, as one id'],
    ['teamId=red', "teamId binds only with agentId: it is a field of an agent's binding"],
    [`agentId=${'x'.repeat(201)}`, 'invalid agentId: must be at most 200 characters'],
  ];
  for (const [q, error] of cases) {
    const bad = await app.inject(`/api/mcp/config?server=tools&${q}`);
    assert.equal(bad.statusCode, 400, q);
    assert.deepEqual(bad.json(), { error }, q);
  }
  assert.equal(tokens().length, 2, 'a refused request mints nothing');
});

void test('Tools broker and MCP: the attach URL comes from the bound loopback port, never from the Host header', async (t) => {
  const { app, runtime } = await buildTestApp(t, { env: { SVC_API_PORT: '19999' } });
  const get = async (host: string) =>
    ((await app.inject({ url: '/api/mcp/config?server=teamchat', headers: { host } })).json() as { config: AttachConfig }).config.snippet;
  // Not bound yet: SVC_API_PORT.
  assert.equal(await get('localhost:31337'), 'cli-a mcp add --transport http svc-teamchat http://127.0.0.1:19999/api/mcp/teamchat');
  runtime.setBoundPort(40_001);
  assert.equal(await get('127.0.0.5:31337'), 'cli-a mcp add --transport http svc-teamchat http://127.0.0.1:40001/api/mcp/teamchat');
  assert.equal(await get('localhost'), 'cli-a mcp add --transport http svc-teamchat http://127.0.0.1:40001/api/mcp/teamchat');
});

void test('Tools broker and MCP: GET /api/mcp/config falls back to port 18790 without a bound port or SVC_API_PORT', async (t) => {
  const { app } = await buildTestApp(t);
  const res = (await app.inject('/api/mcp/config?runtime=gateway')).json() as { config: AttachConfig };
  assert.deepEqual(res.config.structured, { mcp: { servers: { 'svc-tasks': { transport: 'streamable-http', url: 'http://127.0.0.1:18790/api/mcp/tasks' } } } });
});

void test('Tools broker and MCP: with the access gate on, http snippets carry an Authorization: Bearer placeholder and never the token', async (t) => {
  const token = 'gate-token-0123456789';
  const { app } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: token } });
  const denied = await app.inject('/api/mcp/config');
  assert.equal(denied.statusCode, 401);
  // A program (the attached runtime) presents the token as a bearer credential.
  const auth = { authorization: `Bearer ${token}` };
  for (const rt of RUNTIMES) {
    const res = await app.inject({ url: `/api/mcp/config?runtime=${rt}`, headers: auth });
    assert.equal(res.statusCode, 200);
    assert.ok(!res.body.includes(token), 'the real token is never printed');
    assert.ok(res.body.includes('Bearer <STUDIO_ACCESS_TOKEN>'), res.body);
    assert.ok(!res.body.includes('svc_access'), 'the session cookie is the browser\'s, not a program\'s');
  }
  const a = (await app.inject({ url: '/api/mcp/config', headers: auth })).json() as { config: AttachConfig };
  assert.match(a.config.snippet, / --header 'Authorization: Bearer <STUDIO_ACCESS_TOKEN>'$/);
  const stdio = (await app.inject({ url: '/api/mcp/config?transport=stdio', headers: auth })).json() as { config: AttachConfig };
  assert.ok(!stdio.config.snippet.includes('STUDIO_ACCESS_TOKEN'), 'a stdio binary opens the database itself: no gate, no placeholder');

  // The MCP endpoints sit behind the same gate: without the token, 401; with it as a bearer credential, the transport answers.
  const init = {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  assert.equal((await app.inject({ method: 'POST', url: '/api/mcp/tasks', headers, payload: init })).statusCode, 401);
  const noSession = await app.inject({ method: 'POST', url: '/api/mcp/tasks', headers: { ...headers, ...auth }, payload: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
  assert.equal(noSession.statusCode, 400);
  assert.equal((noSession.json() as { error: { code: number } }).error.code, -32000);
});

void test('Tools broker and MCP: a handler throw before headers are sent is a 500 { error } with a redacted message', async (t) => {
  const { runtime } = await buildTestApp(t);
  const host = createMcpHost(runtime.deps, {
    factories: {
      tasks: () => {
        throw new Error('factory broke: api_key=sk-abcdefghijklmnopqrstuvwxyz');
      },
    },
  });
  const app = buildApp({ ...runtime.deps, mcp: host });
  t.after(async () => {
    await app.close();
    await host.close();
  });
  await app.ready();
  const res = await app.inject({
    method: 'POST',
    url: '/api/mcp/tasks',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } },
  });
  assert.equal(res.statusCode, 500);
  const body = res.json() as { error: string };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.match(body.error, /^factory broke/);
  assert.ok(!body.error.includes('sk-abcdefghijklmnopqrstuvwxyz'), body.error);
  assert.equal(host.sessionCount(), 0, 'a failed initialize leaves no session behind');
});

void test('Settings and health: mcpServersHealthy asks each of the four in-process MCP servers for tools/list', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject('/api/health');
  assert.equal(res.statusCode, 200);
  const check = (res.json() as { checks: Array<{ id: string; ok: boolean; message: string; detail?: { servers?: Array<{ name: string; ok: boolean; tools: number }> } }> })
    .checks.find((c) => c.id === 'mcpServersHealthy');
  assert.ok(check);
  assert.equal(check.ok, true, check.message);
  assert.equal(check.message, '4 MCP servers answer tools/list');
  const servers = check.detail?.servers ?? [];
  assert.deepEqual(servers.map((s) => [s.name, s.ok]), [['tasks', true], ['memory', true], ['tools', true], ['teamchat', true]]);
  assert.equal(servers.find((s) => s.name === 'tasks')?.tools, 4);
  assert.equal(servers.find((s) => s.name === 'teamchat')?.tools, 2);
});
