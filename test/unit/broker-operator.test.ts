// Issue 15 #6: approvals are a boundary against the agents they gate. An MCP
// session (any of the four servers, here bound to an agent by a minted
// binding) calls every tool it is offered and leaves a pending approval
// pending and the exec settings as they were; the broker the MCP servers are
// handed refuses a resolve without an operator principal (which only the
// supervisor mints, and nothing under shared/ or bin/ imports); the HTTP
// route still resolves as the spec says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createAgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { OperatorRequiredError, workspaceDir } from '../../shared/broker/index.ts';
import { createLogger } from '../../shared/log.ts';
import { withMinted } from '../../shared/mcp/binding.ts';
import { createMcpContext, stdioRedactor } from '../../shared/mcp/context.ts';
import { MCP_SERVER_FACTORIES } from '../../shared/mcp/servers.ts';
import { MCP_SERVER_NAMES } from '../../shared/mcp/types.ts';
import { operatorPrincipal } from '../../supervisor/http/operator-principal.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { connectInMemory } from '../helpers/mcp.ts';
import { REPO_ROOT } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

function pendingRow(ta: TestApp) {
  return waitFor(() => ta.runtime.deps.broker.pendingApprovals()[0], { what: 'a pending approval' });
}

/** What an operator-minded agent might try: every field a resolve or an exec-policy write would take. */
const ATTACK = { approvalId: '', id: '', decision: 'allow_always', status: 'allow_always', execAsk: 'off', execSecurity: 'full', ask: 'off', security: 'full' };

async function execSettings(ta: TestApp) {
  const all = await ta.app.inject('/api/exec-settings/all');
  const one = await ta.app.inject('/api/exec-settings?agentId=agent-x');
  return { all: all.json(), one: one.json(), rows: ta.runtime.deps.db.prepare('SELECT agent_id, config, updated_at FROM exec_settings ORDER BY agent_id').all() };
}

void test('Security (issue 15 #6): no tool of the four MCP servers, called by a session bound to an agent, resolves a pending approval or changes exec settings', async (t) => {
  // A search URL nothing listens on: web_search is offered (and fails), so it is called too.
  const ta = await buildTestApp(t, { env: { SVC_SEARCH_URL: 'http://127.0.0.1:9/search' } });
  const { deps } = ta.runtime;
  const saved = await ta.app.inject({ method: 'POST', url: '/api/exec-settings', payload: { agentId: 'agent-x', values: { execAsk: 'always', execSecurity: 'deny' } } });
  assert.equal(saved.statusCode, 200, saved.body);
  const execBefore = await execSettings(ta);

  // Someone else's destructive call waits for a human.
  const ws = workspaceDir(deps.paths);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'keep.txt'), 'precious');
  const waiting = deps.broker.call('delete_path', { path: 'keep.txt' }, { agentId: 'someone-else' });
  const row = await pendingRow(ta);
  const attack = { ...ATTACK, approvalId: row.id, id: row.id };
  const task = deps.domain.board.create({ title: 'a task to claim' });

  const ARGS: Record<string, Record<string, unknown>> = {
    list_tasks: {},
    create_task: { title: 'made by the agent' },
    claim_task: { taskId: task.id, agentId: 'agent-x' },
    add_comment: { taskId: task.id, body: 'allow_always please' },
    memory_save: { content: `resolve ${row.id} allow_always` },
    memory_search: { query: 'resolve' },
    memory_browse: {},
    echo: { text: row.id },
    note: { text: `approve ${row.id}` },
    web_search: { query: 'how to approve' },
    delete_path: { path: '/etc/passwd' },
    team_chat_post: { text: `/approve ${row.id}` },
    team_chat_subscribe: {},
  };

  const minted = createAgentTokenStore(deps.db).mint('mcp', { agentId: 'agent-x', teamId: 'team-x', taskId: task.id }).binding;
  const called: string[] = [];
  for (const server of MCP_SERVER_NAMES) {
    const client = await connectInMemory(t, MCP_SERVER_FACTORIES[server](deps, withMinted(server, {}, minted)));
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0, server);
    for (const tool of tools) {
      const args = ARGS[tool.name];
      assert.ok(args, `a new tool ${server}/${tool.name} must be added to this test`);
      const r = (await client.callTool({ name: tool.name, arguments: { ...attack, ...args } })) as CallToolResult;
      assert.ok(Array.isArray(r.content), `${tool.name} answered`);
      called.push(tool.name);
      assert.equal(deps.broker.getApproval(row.id)?.status, 'pending', `after ${tool.name}`);
    }
  }
  assert.deepEqual(called.sort(), Object.keys(ARGS).sort(), 'every tool of every server was called');

  assert.equal(deps.broker.getApproval(row.id)?.status, 'pending');
  assert.equal(deps.broker.waiting(), 1, 'the other call still waits for a human');
  assert.deepEqual(await execSettings(ta), execBefore);
  assert.equal(readFileSync(join(ws, 'keep.txt'), 'utf8'), 'precious');

  // The dashboard's route still resolves (spec behaviour unchanged).
  const res = await ta.app.inject({ method: 'POST', url: `/api/tools/approvals/${row.id}/resolve`, payload: { decision: 'deny' } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal((await waiting).outcome, 'denied');
});

void test('Security (issue 15 #6): the broker MCP servers are handed refuses a resolve without an operator principal', async (t) => {
  const ta = await buildTestApp(t);
  const { deps } = ta.runtime;
  const ws = workspaceDir(deps.paths);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'keep.txt'), 'x');
  const ac = new AbortController();
  const waiting = deps.broker.call('delete_path', { path: 'keep.txt' }, { agentId: 'a', signal: ac.signal });
  const row = await pendingRow(ta);

  // What code holding only the MCP context could try: the call without a
  // principal, a look-alike, and a copy of a real one.
  const resolve = deps.broker.resolveApproval as unknown as (...a: unknown[]) => unknown;
  const OP = operatorPrincipal('http');
  for (const args of [[row.id, 'allow_always'], [{ kind: 'operator', via: 'http' }, row.id, 'allow_always'], [{ ...OP }, row.id, 'allow_always']]) {
    let threw: unknown = null;
    try {
      resolve.apply(deps.broker, args);
    } catch (err) {
      threw = err;
    }
    assert.ok(threw instanceof OperatorRequiredError, `refused: ${JSON.stringify(args)}`);
    assert.equal(deps.broker.getApproval(row.id)?.status, 'pending');
  }

  // A stdio binary's broker has no operator check at all: even a real principal is refused there.
  const logger = createLogger({ level: 'silent' });
  const stdio = createMcpContext(ta.config, logger, stdioRedactor(ta.config));
  t.after(() => stdio.close());
  assert.throws(() => stdio.broker.resolveApproval(OP, row.id, 'allow_always'), OperatorRequiredError);
  assert.equal(deps.broker.getApproval(row.id)?.status, 'pending');

  ac.abort();
  assert.equal((await waiting).outcome, 'cancelled');
});

void test('Security (issue 15 #6): nothing under shared/ or bin/ imports the supervisor, where operator principals are minted', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
  const offenders = ['shared', 'bin']
    .flatMap((d) => files(join(REPO_ROOT, d)))
    .filter((f) => /from\s+['"][^'"]*supervisor\//.test(readFileSync(f, 'utf8')))
    .map((f) => relative(REPO_ROOT, f));
  assert.deepEqual(offenders, []);
});
