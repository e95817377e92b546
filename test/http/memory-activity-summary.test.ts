// Spec "GET /api/teams/:id/activity-summary" and "Tools broker and MCP":
// memory is the store the activity summary reads. A bound memory MCP session
// (the real factory, over the runtime's own deps) saves team memory; the
// summary route shows it after the board, and another team's memory does not leak in.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMemoryServer } from '../../shared/mcp/memory-server.ts';
import type { McpBinding } from '../../shared/mcp/types.ts';
import type { Runtime } from '../../supervisor/runtime.ts';
import { buildTestApp } from '../helpers/app.ts';
import { connectInMemory } from '../helpers/mcp.ts';

async function createTeam(app: FastifyInstance, name: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/teams', payload: { name, icon: 'x', color: '#00ff00' } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ team: { id: string } }>().team.id;
}

async function memorySession(t: TestContext, runtime: Runtime, binding: McpBinding) {
  const client = await connectInMemory(t, createMemoryServer(runtime.deps, binding), 'memory-summary-test');
  return async (content: string, extra: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name: 'memory_save', arguments: { content, ...extra } })) as CallToolResult;
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
  };
}

const summary = async (app: FastifyInstance, id: string) => {
  const res = await app.inject(`/api/teams/${id}/activity-summary`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ content: string | null }>().content;
};

void test('Tools broker and MCP → memory: the activity summary reads team memory saved through a bound memory session', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const alpha = await createTeam(app, 'Alpha');
  const beta = await createTeam(app, 'Beta');
  assert.equal(await summary(app, alpha), null, 'nothing saved yet');

  const saveAlpha = await memorySession(t, runtime, { scopeTeamId: alpha, scopeAgentId: 'agent-1' });
  await saveAlpha('Release train leaves on Thursdays', { title: 'Cadence', kind: 'decision' });
  await saveAlpha('Staging   uses\nport 5433');
  const saveBeta = await memorySession(t, runtime, { scopeTeamId: beta });
  await saveBeta('Beta keeps its own notes');

  assert.equal(await summary(app, alpha), '## Memory\n- Staging uses port 5433\n- [decision] Cadence: Release train leaves on Thursdays');
  assert.equal(await summary(app, beta), '## Memory\n- Beta keeps its own notes');

  const task = await app.inject({ method: 'POST', url: '/api/tasks', payload: { title: 'Ship it', teamId: alpha } });
  assert.equal(task.statusCode, 200, task.body);
  const withBoard = (await summary(app, alpha)) ?? '';
  assert.match(withBoard, /^## Board\n1 task: 1 todo\n- \[todo\] Ship it\n\n## Memory\n- Staging uses port 5433\n/, 'memory comes after the board');
});

void test('Tools broker and MCP → memory: an unbound session tags by argument and the summary reads the tagged team only', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const alpha = await createTeam(app, 'Alpha');
  const save = await memorySession(t, runtime, {});
  await save('Untagged note');
  assert.equal(await summary(app, alpha), null, 'untagged memory belongs to no team');
  await save('Tagged for alpha', { teamId: alpha });
  assert.equal(await summary(app, alpha), '## Memory\n- Tagged for alpha');
});
