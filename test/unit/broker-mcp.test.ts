// Spec "Tools broker and MCP → MCP transport / Tools exposed": the tools
// server, driven by the real MCP SDK Client over an in-memory transport pair.
// tools/list omits unavailable tools; echo answers; delete_path blocks until
// the approval is resolved and then runs; a denied call is an error result; a
// cancelled request stops waiting.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createAgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { workspaceDir } from '../../shared/broker/index.ts';
import { withMinted } from '../../shared/mcp/binding.ts';
import { createToolsServer } from '../../shared/mcp/tools-server.ts';
import type { McpBinding } from '../../shared/mcp/types.ts';
import { operatorPrincipal } from '../../supervisor/http/operator-principal.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { connectInMemory } from '../helpers/mcp.ts';
import { waitFor } from '../helpers/wait.ts';

const OP = operatorPrincipal('http');

async function connect(t: TestContext, ta: TestApp, binding: McpBinding = {}): Promise<Client> {
  return connectInMemory(t, createToolsServer(ta.runtime.deps, binding));
}

function nextPending(ta: TestApp) {
  return waitFor(() => ta.runtime.deps.broker.pendingApprovals()[0], { what: 'a pending approval' });
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

void test('Tools broker and MCP → tools server: tools/list omits web_search without SVC_SEARCH_URL; echo answers', async (t) => {
  const ta = await buildTestApp(t);
  const client = await connect(t, ta);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), ['delete_path', 'echo', 'note']);
  const del = tools.find((x) => x.name === 'delete_path');
  assert.equal(del?.annotations?.destructiveHint, true);
  assert.ok(del?.inputSchema.properties && 'path' in del.inputSchema.properties);
  const r = (await client.callTool({ name: 'echo', arguments: { text: 'hello' } })) as CallToolResult;
  assert.equal(r.isError, false);
  assert.equal(textOf(r), 'hello');
});

void test('Tools broker and MCP → tools server: web_search is listed when SVC_SEARCH_URL is set', async (t) => {
  const ta = await buildTestApp(t, { env: { SVC_SEARCH_URL: 'http://127.0.0.1:9/search' } });
  const client = await connect(t, ta);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), ['delete_path', 'echo', 'note', 'web_search']);
});

void test('Tools broker and MCP → tools server: delete_path blocks until approved, then runs; the binding names the agent', async (t) => {
  const ta = await buildTestApp(t);
  const ws = workspaceDir(ta.runtime.deps.paths);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'f.txt'), 'x');
  const minted = createAgentTokenStore(ta.runtime.deps.db).mint('mcp', { agentId: 'bound-agent' }).binding;
  const client = await connect(t, ta, withMinted('tools', {}, minted));
  let settled = false;
  const call = client.callTool({ name: 'delete_path', arguments: { path: 'f.txt' } }).finally(() => (settled = true));
  const row = await nextPending(ta);
  assert.equal(row.agentId, 'bound-agent');
  assert.equal(ta.runtime.deps.broker.waiting(), 1, 'the call is blocked on its approval');
  assert.equal(settled, false, 'the call is still blocked');
  assert.ok(existsSync(join(ws, 'f.txt')));
  ta.runtime.deps.broker.resolveApproval(OP, row.id, 'allow_once');
  const r = (await call) as CallToolResult;
  assert.equal(r.isError, false, textOf(r));
  assert.equal(existsSync(join(ws, 'f.txt')), false);
});

void test('Tools broker and MCP → tools server: a denied call is an error result saying so; a cancelled request stops waiting', async (t) => {
  const ta = await buildTestApp(t);
  const ws = workspaceDir(ta.runtime.deps.paths);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'g.txt'), 'x');
  const client = await connect(t, ta);
  const call = client.callTool({ name: 'delete_path', arguments: { path: 'g.txt' } });
  const row = await nextPending(ta);
  assert.equal(row.agentId, null);
  ta.runtime.deps.broker.resolveApproval(OP, row.id, 'deny');
  const r = (await call) as CallToolResult;
  assert.equal(r.isError, true);
  assert.match(textOf(r), /denied/);
  assert.ok(existsSync(join(ws, 'g.txt')));

  const ac = new AbortController();
  const cancelled = client.callTool({ name: 'delete_path', arguments: { path: 'g.txt' } }, undefined, { signal: ac.signal });
  await nextPending(ta);
  assert.equal(ta.runtime.deps.broker.waiting(), 1);
  ac.abort();
  await assert.rejects(cancelled);
  await waitFor(() => ta.runtime.deps.broker.waiting() === 0, { what: 'the server to stop waiting once the request is cancelled' });
  assert.deepEqual(ta.runtime.deps.broker.pendingApprovals(), []);
  assert.ok(existsSync(join(ws, 'g.txt')));
});

void test('Security (issue 15 #6): a tools session whose binding names an agent without a minted token is anonymous', async (t) => {
  const ta = await buildTestApp(t);
  const ws = workspaceDir(ta.runtime.deps.paths);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'h.txt'), 'x');
  const client = await connect(t, ta, { agentId: 'claimed-agent', taskId: 'claimed-task' });
  const ac = new AbortController();
  const call = client.callTool({ name: 'delete_path', arguments: { path: 'h.txt' } }, undefined, { signal: ac.signal });
  const row = await nextPending(ta);
  assert.deepEqual([row.agentId, row.taskId], [null, null]);
  ac.abort();
  await assert.rejects(call);
});
