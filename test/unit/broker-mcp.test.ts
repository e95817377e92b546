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
import { workspaceDir } from '../../shared/broker/index.ts';
import { createToolsServer } from '../../shared/mcp/tools-server.ts';
import type { McpBinding } from '../../shared/mcp/types.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { connectInMemory } from '../helpers/mcp.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function connect(t: TestContext, ta: TestApp, binding: McpBinding = {}): Promise<Client> {
  return connectInMemory(t, createToolsServer(ta.runtime.deps, binding));
}

async function nextPending(ta: TestApp) {
  for (let i = 0; i < 300; i++) {
    const [row] = ta.runtime.deps.broker.pendingApprovals();
    if (row) return row;
    await sleep(10);
  }
  throw new Error('no pending approval appeared');
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
  const client = await connect(t, ta, { agentId: 'bound-agent' });
  let settled = false;
  const call = client.callTool({ name: 'delete_path', arguments: { path: 'f.txt' } }).finally(() => (settled = true));
  const row = await nextPending(ta);
  assert.equal(row.agentId, 'bound-agent');
  await sleep(50);
  assert.equal(settled, false, 'the call is still blocked');
  assert.ok(existsSync(join(ws, 'f.txt')));
  ta.runtime.deps.broker.resolveApproval(row.id, 'allow_once');
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
  ta.runtime.deps.broker.resolveApproval(row.id, 'deny');
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
  for (let i = 0; i < 100 && ta.runtime.deps.broker.waiting() > 0; i++) await sleep(10);
  assert.equal(ta.runtime.deps.broker.waiting(), 0, 'the server stopped waiting');
  assert.deepEqual(ta.runtime.deps.broker.pendingApprovals(), []);
  assert.ok(existsSync(join(ws, 'g.txt')));
});
