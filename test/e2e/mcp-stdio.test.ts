// Spec "Command-line launcher → MCP stdio binaries" and "State directory": the
// BUILT binaries (`npm run build` first) spawned with the SDK's
// StdioClientTransport against a temporary SVC_HOME. They open the same
// database as the server (<SVC_HOME>/svc.db unless SVC_DB_PATH), and several
// of them writing tasks, posts and memories at once lose nothing (the
// reference memory server's known failure).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openDatabase } from '../../shared/db/open.ts';
import { REPO_ROOT, removeHome, startServer, tempHome, testEnv } from '../helpers/server.ts';
import { runChild, startChild } from '../helpers/spawn.ts';
import { waitFor } from '../helpers/wait.ts';

const BIN_DIR = join(REPO_ROOT, 'dist', 'bin', 'mcp');

interface Spawned { client: Client; transport: StdioClientTransport; stderr: () => string }

async function spawnServer(t: TestContext, server: string, env: Record<string, string>): Promise<Spawned> {
  const bin = join(BIN_DIR, `${server}.js`);
  assert.ok(existsSync(bin), `${bin} is missing: run npm run build first`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin],
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'svc-stdio-test', version: '0.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, transport, stderr: () => err };
}

function ok<T = Record<string, unknown>>(r: unknown): T {
  const res = r as CallToolResult;
  assert.notEqual(res.isError, true, `tool failed: ${JSON.stringify(res.content)}`);
  return JSON.parse((res.content[0] as { text: string }).text) as T;
}

const childEnv = (home: string, extra: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(testEnv(home, { LOG_LEVEL: 'info', ...extra })).filter((e): e is [string, string] => e[1] !== undefined));

void test('Command-line launcher: the stdio tasks and teamchat binaries serve every tool against <SVC_HOME>/svc.db', async (t) => {
  const home = tempHome('svc-mcp-stdio-');
  t.after(() => removeHome(home));
  const env = childEnv(home);

  const tasks = await spawnServer(t, 'tasks', env);
  assert.deepEqual((await tasks.client.listTools()).tools.map((x) => x.name).sort(), ['add_comment', 'claim_task', 'create_task', 'list_tasks']);
  const { task } = ok<{ task: { id: string } }>(await tasks.client.callTool({ name: 'create_task', arguments: { title: 'stdio task', teamId: 't1' } }));
  assert.equal(ok<{ tasks: unknown[] }>(await tasks.client.callTool({ name: 'list_tasks', arguments: { teamId: 't1' } })).tasks.length, 1);
  ok(await tasks.client.callTool({ name: 'claim_task', arguments: { taskId: task.id, agentId: 'a1' } }));
  const lost = (await tasks.client.callTool({ name: 'claim_task', arguments: { taskId: task.id, agentId: 'a2' } })) as CallToolResult;
  assert.equal(lost.isError, true);
  assert.equal((lost.content[0] as { text: string }).text, 'task already claimed');
  ok(await tasks.client.callTool({ name: 'add_comment', arguments: { taskId: task.id, body: 'from stdio', authorAgentId: 'a1' } }));

  // Unbound by default: identity from arguments, no event.
  const chat = await spawnServer(t, 'teamchat', env);
  const unbound = ok<{ post: { room: string; authorAgentId: string }; bound: boolean }>(
    await chat.client.callTool({ name: 'team_chat_post', arguments: { text: 'hi', teamId: 't1', authorAgentId: 'a1' } }),
  );
  assert.deepEqual([unbound.bound, unbound.post.room, unbound.post.authorAgentId], [false, 'team:t1', 'a1']);
  // Bound through its environment: arguments cannot move it.
  const bound = await spawnServer(t, 'teamchat', { ...env, SVC_MCP_ROOM_TEAM_ID: 't1', SVC_MCP_POST_AUTHOR_AGENT_ID: 'a2' });
  const b = ok<{ post: { room: string; authorAgentId: string }; bound: boolean }>(
    await bound.client.callTool({ name: 'team_chat_post', arguments: { text: 'bound hello', teamId: 'other', authorAgentId: 'x' } }),
  );
  assert.deepEqual([b.bound, b.post.room, b.post.authorAgentId], [true, 'team:t1', 'a2']);
  const read = ok<{ posts: Array<{ text: string }> }>(await chat.client.callTool({ name: 'team_chat_subscribe', arguments: { teamId: 't1' } }));
  assert.deepEqual(read.posts.map((p) => p.text), ['hi', 'bound hello']);

  // Logs go to stderr only: stdout stayed a clean protocol stream (the client parsed every line).
  assert.match(tasks.stderr(), /svc-mcp-tasks serving over stdio/);

  // Stdin ends: the binary closes its database and exits by itself, not
  // through the SDK's SIGTERM fallback (its log says why it stopped).
  await tasks.client.close();
  const stopped = tasks.stderr().split('\n').filter((l) => l.includes('stdio MCP server stopping')).map((l) => (JSON.parse(l) as { why: string }).why);
  assert.equal(stopped.length, 1, tasks.stderr());
  assert.ok(['stdin ended', 'transport closed'].includes(stopped[0] as string), `stopped on ${stopped[0]}`);

  const db = openDatabase(join(home, 'svc.db'));
  t.after(() => db.close());
  assert.equal(db.prepare('SELECT COUNT(*) FROM tasks').pluck().get(), 1);
  assert.equal(db.prepare('SELECT COUNT(*) FROM task_comments').pluck().get(), 1);
  const events = db.prepare(`SELECT kind, agent_id AS agentId, team_id AS teamId FROM events WHERE kind = 'team_chat_post'`).all();
  assert.deepEqual(events, [{ kind: 'team_chat_post', agentId: 'a2', teamId: 't1' }]);
});

void test('Command-line launcher: the stdio tools and memory binaries serve every tool; a delete_path approved on the dashboard wakes the binary', async (t) => {
  const home = tempHome('svc-mcp-stdio-tools-');
  t.after(() => removeHome(home));
  // The dashboard, a separate process on the same home: the approval is resolved through its route.
  const svc = await startServer({ home });
  t.after(() => svc.stop());
  // The operator's step: the stdio snippet for agent-7 carries its minted binding (SVC_MCP_BINDING).
  const cfg = (await (await fetch(`${svc.base}/api/mcp/config?server=tools&runtime=cli-a&transport=stdio&agentId=agent-7`)).json()) as {
    config: { structured: { env: Record<string, string> } };
  };
  const binding = cfg.config.structured.env.SVC_MCP_BINDING;
  assert.match(binding ?? '', /^svc_mcp_/);
  const env = childEnv(home, { SVC_MCP_BINDING: binding as string });

  const tools = await spawnServer(t, 'tools', env);
  assert.deepEqual((await tools.client.listTools()).tools.map((x) => x.name).sort(), ['delete_path', 'echo', 'note']);
  const echoed = (await tools.client.callTool({ name: 'echo', arguments: { text: 'héllo stdio' } })) as CallToolResult;
  assert.deepEqual([echoed.isError ?? false, (echoed.content[0] as { text: string }).text], [false, 'héllo stdio']);
  const noted = (await tools.client.callTool({ name: 'note', arguments: { text: 'remember the milk', tags: ['todo'] } })) as CallToolResult;
  assert.notEqual(noted.isError, true, JSON.stringify(noted.content));

  mkdirSync(join(home, 'workspace'), { recursive: true });
  writeFileSync(join(home, 'workspace', 'doomed.txt'), 'bye');
  const call = tools.client.callTool({ name: 'delete_path', arguments: { path: 'doomed.txt' } }) as Promise<CallToolResult>;
  type Approval = { id: string; toolName: string; agentId: string; status: string };
  const approval = await waitFor(
    async () => ((await (await fetch(`${svc.base}/api/tools/approvals`)).json()) as { approvals: Approval[] }).approvals.find((a) => a.toolName === 'delete_path'),
    { what: 'the binary to queue an approval the dashboard lists' },
  );
  assert.deepEqual([approval.agentId, approval.status], ['agent-7', 'pending']);
  assert.ok(existsSync(join(home, 'workspace', 'doomed.txt')), 'nothing is deleted before the approval');
  const resolved = await fetch(`${svc.base}/api/tools/approvals/${approval.id}/resolve`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'allow_once' }),
  });
  assert.equal(resolved.status, 200);
  const done = await call;
  assert.notEqual(done.isError, true, JSON.stringify(done.content));
  assert.equal((done.content[0] as { text: string }).text, 'deleted doomed.txt');
  assert.ok(!existsSync(join(home, 'workspace', 'doomed.txt')));
  const audit = (await (await fetch(`${svc.base}/api/tools/audit?toolName=delete_path`)).json()) as { audit: Array<{ phase: string; agentId: string; isError: number }> };
  assert.deepEqual(audit.audit.map((r) => [r.phase, r.agentId, r.isError]), [['after', 'agent-7', 0], ['before', 'agent-7', 0]]);

  // Memory, bound to a team: saves land in that scope whatever the arguments say.
  const memory = await spawnServer(t, 'memory', childEnv(home, { SVC_MCP_SCOPE_TEAM_ID: 'team-m' }));
  assert.deepEqual((await memory.client.listTools()).tools.map((x) => x.name).sort(), ['memory_browse', 'memory_save', 'memory_search']);
  const saved = ok<{ memory: { id: string; teamId: string } }>(await memory.client.callTool({ name: 'memory_save', arguments: { content: 'the deploy key rotates on fridays', tags: ['ops'] } }));
  assert.equal(saved.memory.teamId, 'team-m');
  const widened = (await memory.client.callTool({ name: 'memory_save', arguments: { content: 'elsewhere', teamId: 'other-team' } })) as CallToolResult;
  assert.equal(widened.isError, true, 'a bound session cannot save into another team');
  const found = ok<{ mode: string; hits: Array<{ id: string }> }>(await memory.client.callTool({ name: 'memory_search', arguments: { query: 'deploy fridays' } }));
  assert.equal(found.mode, 'fts');
  assert.deepEqual(found.hits.map((h) => h.id), [saved.memory.id]);
  const page = ok<{ memories: Array<{ id: string }>; nextCursor: string | null }>(await memory.client.callTool({ name: 'memory_browse', arguments: {} }));
  assert.deepEqual(page.memories.map((m) => m.id), [saved.memory.id]);
});

void test('Security (issue 15 #6): the stdio tools binary refuses SVC_MCP_AGENT_ID and an unknown SVC_MCP_BINDING at start, saying how to get a binding', async (t) => {
  const home = tempHome('svc-mcp-stdio-bind-');
  t.after(() => removeHome(home));
  for (const [extra, message] of [
    [{ SVC_MCP_AGENT_ID: 'agent-7' }, 'SVC_MCP_AGENT_ID no longer binds an identity (any caller could choose it): ask svc for a binding (GET /api/mcp/config?server=tools&transport=stdio&agentId=<agent>) and set SVC_MCP_BINDING'],
    [{ SVC_MCP_BINDING: 'svc_mcp_not-a-real-one' }, 'SVC_MCP_BINDING is not a binding svc knows (unknown or revoked): ask svc for a new one'],
  ] as const) {
    const run = await runChild(process.execPath, [join(BIN_DIR, 'tools.js')], { env: childEnv(home, extra), stdin: 'pipe' });
    assert.equal(run.code, 1, run.stderr);
    assert.ok(run.stderr.includes(message), run.stderr);
  }
});

void test('Command-line launcher: several stdio binaries writing tasks, posts and memories to one database in parallel lose nothing', async (t) => {
  const home = tempHome('svc-mcp-stdio-par-');
  t.after(() => removeHome(home));
  const dbPath = join(home, 'elsewhere', 'shared.db');
  const env = childEnv(home, { SVC_DB_PATH: dbPath });
  const PROCS = 4;
  const EACH = 25;
  const tasks = await Promise.all(Array.from({ length: PROCS }, () => spawnServer(t, 'tasks', env)));
  const chats = await Promise.all(Array.from({ length: PROCS }, () => spawnServer(t, 'teamchat', env)));
  const memories = await Promise.all(Array.from({ length: PROCS }, () => spawnServer(t, 'memory', env)));
  await Promise.all([
    ...memories.map(async (p, i) => {
      for (let n = 0; n < EACH; n++) {
        ok(await p.client.callTool({ name: 'memory_save', arguments: { content: `writer ${i} entry ${n} marker${i}x${n}`, teamId: 'par', agentId: `agent-${i}` } }));
      }
    }),
    ...tasks.map(async (p, i) => {
      for (let n = 0; n < EACH; n++) ok(await p.client.callTool({ name: 'create_task', arguments: { title: `p${i} task ${n}`, teamId: 'par' } }));
    }),
    ...chats.map(async (p, i) => {
      for (let n = 0; n < EACH; n++) {
        ok(await p.client.callTool({ name: 'team_chat_post', arguments: { text: `p${i} post ${n}`, teamId: 'par', authorAgentId: `agent-${i}` } }));
      }
    }),
  ]);
  const listed = ok<{ tasks: unknown[] }>(await tasks[0]!.client.callTool({ name: 'list_tasks', arguments: { teamId: 'par', limit: 2000 } }));
  assert.equal(listed.tasks.length, PROCS * EACH);
  const read = ok<{ posts: Array<{ id: number }> }>(await chats[0]!.client.callTool({ name: 'team_chat_subscribe', arguments: { teamId: 'par', limit: 500 } }));
  assert.equal(read.posts.length, PROCS * EACH);
  assert.equal(new Set(read.posts.map((p) => p.id)).size, PROCS * EACH);

  // Every memory any writer saved is findable by full-text search from any process.
  for (let i = 0; i < PROCS; i++) {
    for (let n = 0; n < EACH; n += 6) {
      const hits = ok<{ hits: Array<{ agentId: string; content: string }> }>(await memories[(i + 1) % PROCS]!.client.callTool({ name: 'memory_search', arguments: { query: `marker${i}x${n}`, teamId: 'par' } })).hits;
      assert.deepEqual(hits.map((h) => [h.agentId, h.content]), [[`agent-${i}`, `writer ${i} entry ${n} marker${i}x${n}`]]);
    }
  }

  await Promise.all([...tasks, ...chats, ...memories].map((p) => p.client.close()));
  assert.ok(!existsSync(join(home, 'svc.db')), 'SVC_DB_PATH wins over <SVC_HOME>/svc.db');
  const db = openDatabase(dbPath);
  t.after(() => db.close());
  assert.equal(db.prepare(`SELECT COUNT(*) FROM tasks WHERE team_id = 'par'`).pluck().get(), PROCS * EACH);
  assert.equal(db.prepare(`SELECT COUNT(*) FROM events WHERE kind = 'task_created'`).pluck().get(), PROCS * EACH);
  assert.equal(db.prepare(`SELECT COUNT(*) FROM team_chat_posts WHERE room = 'team:par'`).pluck().get(), PROCS * EACH);
  assert.equal(db.prepare(`SELECT COUNT(DISTINCT id) FROM memories WHERE team_id = 'par'`).pluck().get(), PROCS * EACH);
  // The full-text index holds exactly the content table's rows (FTS5 integrity-check throws on a mismatch).
  db.prepare(`INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)`).run();
});

void test('Command-line launcher: every stdio binary starts; SIGTERM closes the database and exits 0', async (t) => {
  const home = tempHome('svc-mcp-stdio-sig-');
  t.after(() => removeHome(home));
  const env = childEnv(home);
  for (const name of ['memory', 'tools']) {
    const s = await spawnServer(t, name, env);
    assert.equal(s.client.getServerVersion()?.name, `svc-${name}`);
  }
  const child = startChild(process.execPath, [join(BIN_DIR, 'teamchat.js')], { env, stdin: 'pipe', cleanup: t });
  await child.line('serving over stdio', { what: 'the teamchat binary to serve' });
  const { code } = await child.stop('SIGTERM');
  const err = child.stderr();
  assert.equal(code, 0, err);
  assert.deepEqual(err.split('\n').filter((l) => l.includes('stdio MCP server stopping')).map((l) => (JSON.parse(l) as { why: string }).why), ['SIGTERM']);
  assert.equal(child.stdout(), '', 'nothing but protocol messages on stdout, and none were asked for');
  // The database was closed cleanly and is the migrated svc.db under SVC_HOME.
  const db = openDatabase(join(home, 'svc.db'));
  t.after(() => db.close());
  assert.equal(db.prepare('SELECT COUNT(*) FROM team_chat_posts').pluck().get(), 0);
});
