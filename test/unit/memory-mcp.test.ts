// Spec "Tools broker and MCP": the memory server's tools memory_save,
// memory_search, memory_browse through the real MCP SDK Client over an
// in-memory transport pair; session binding cannot be widened by arguments;
// fuzzed tool arguments never crash the server.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildMemoryServer } from '../../shared/mcp/memory-server.ts';
import type { McpBinding } from '../../shared/mcp/types.ts';
import type { MemoryStore } from '../../shared/memory/index.ts';
import { createRedactor } from '../../shared/redact.ts';
import { memoryFixture } from '../fixtures/memory-helpers.ts';
import { connectInMemory } from '../helpers/mcp.ts';

const P = 'Tools broker and MCP → memory:';

async function connect(t: TestContext, store: MemoryStore, binding: McpBinding, logger = memoryFixture(t).logger) {
  const server = buildMemoryServer({ store, binding, version: '0.0.0-test', logger, redactor: createRedactor(() => []) });
  const client = await connectInMemory(t, server, 'memory-test');
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, call };
}

const body = (r: CallToolResult): Record<string, unknown> => {
  assert.notEqual(r.isError, true, JSON.stringify(r.content));
  const first = r.content[0];
  assert.equal(first?.type, 'text');
  const parsed = JSON.parse(first?.type === 'text' ? first.text : '{}') as Record<string, unknown>;
  assert.deepEqual(r.structuredContent, parsed, 'text and structuredContent agree');
  return parsed;
};
const errorText = (r: CallToolResult) => {
  assert.equal(r.isError, true);
  const first = r.content[0];
  return first?.type === 'text' ? first.text : '';
};

void test(`${P} tools/list offers memory_save, memory_search, memory_browse with bounded input schemas`, async (t) => {
  const { store } = memoryFixture(t);
  const { client } = await connect(t, store, {});
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), ['memory_browse', 'memory_save', 'memory_search']);
  const save = tools.find((x) => x.name === 'memory_save');
  const content = save?.inputSchema.properties?.content as { maxLength?: number } | undefined;
  assert.equal(content?.maxLength, 16_000);
  assert.deepEqual(save?.inputSchema.required, ['content']);
  assert.deepEqual(tools.find((x) => x.name === 'memory_search')?.inputSchema.required, ['query']);
});

void test(`${P} an unbound session saves, searches and browses, with scope from the arguments`, async (t) => {
  const { store } = memoryFixture(t);
  const { call } = await connect(t, store, {});
  const saved = body(await call('memory_save', { content: 'The staging database is on port 5433', title: 'Staging', tags: ['db'], teamId: 'T1' }));
  const memory = saved.memory as { id: string; teamId: string | null; agentId: string | null; tags: string[] };
  assert.equal(saved.ok, true);
  assert.deepEqual([memory.teamId, memory.agentId, memory.tags], ['T1', null, ['db']]);
  body(await call('memory_save', { content: 'Production database is managed', teamId: 'T2' }));
  body(await call('memory_save', { content: 'Untagged database note' }));

  const all = body(await call('memory_search', { query: 'database' }));
  assert.equal(all.mode, 'fts');
  assert.equal((all.hits as unknown[]).length, 3, 'no scope arguments: everything');
  const t1 = body(await call('memory_search', { query: 'database port', teamId: 'T1' }));
  const hits = t1.hits as Array<{ id: string; snippet: string; match: string }>;
  assert.deepEqual(hits.map((h) => h.id), [memory.id]);
  assert.match(hits[0]?.snippet ?? '', /\[database\]/);

  const page1 = body(await call('memory_browse', { limit: 2 }));
  assert.equal((page1.memories as unknown[]).length, 2);
  assert.equal(typeof page1.nextCursor, 'string');
  const page2 = body(await call('memory_browse', { limit: 2, cursor: page1.nextCursor }));
  assert.deepEqual((page2.memories as Array<{ id: string }>).map((m) => m.id), [memory.id], 'oldest last');
  assert.equal(page2.nextCursor, null);
  assert.equal((body(await call('memory_browse', { teamId: 'T2' })).memories as unknown[]).length, 1);
});

void test(`${P} a bound session tags saves with its binding and cannot read or write outside it through arguments`, async (t) => {
  const { store } = memoryFixture(t);
  await store.save({ content: 'team two roadmap secret' }, { teamId: 'T2' });
  await store.save({ content: 'untagged roadmap' }, {});
  const { call } = await connect(t, store, { scopeTeamId: 'T1', scopeAgentId: 'A1' });

  const saved = body(await call('memory_save', { content: 'team one roadmap' }));
  assert.deepEqual([(saved.memory as { teamId: string }).teamId, (saved.memory as { agentId: string }).agentId], ['T1', 'A1']);
  assert.match(errorText(await call('memory_save', { content: 'sneaky', teamId: 'T2' })), /bound/);
  assert.match(errorText(await call('memory_save', { content: 'sneaky', agentId: 'lead' })), /bound/);
  assert.match(errorText(await call('memory_save', { content: 'sneaky', tenantId: 'X' })), /bound/, 'an open key cannot tag a save either');
  body(await call('memory_save', { content: 'team one roadmap again', teamId: 'T1' }));

  const own = body(await call('memory_search', { query: 'roadmap', limit: 50 }));
  assert.deepEqual((own.hits as Array<{ content: string }>).map((h) => h.content).sort(), ['team one roadmap', 'team one roadmap again']);
  assert.match(errorText(await call('memory_search', { query: 'roadmap', teamId: 'T2' })), /bound/);
  assert.match(errorText(await call('memory_browse', { agentId: 'A2' })), /bound/);
  const browsed = body(await call('memory_browse', { limit: 50 }));
  assert.deepEqual((browsed.memories as Array<{ teamId: string }>).map((m) => m.teamId), ['T1', 'T1']);

  assert.equal(store.browse({ teamId: 'T2' }).memories.length, 1, 'nothing was written into T2');
  assert.equal(store.browse({}, { limit: 50 }).memories.length, 4, 'the two refused saves wrote nothing');
});

void test(`${P} invalid arguments are error results, and limits are clamped`, async (t) => {
  const { store } = memoryFixture(t);
  const { call } = await connect(t, store, {});
  assert.match(errorText(await call('memory_save', {})), /content/);
  assert.match(errorText(await call('memory_save', { content: 'x'.repeat(16_001) })), /16000|too big|content/i);
  assert.match(errorText(await call('memory_save', { content: '   ' })), /empty/);
  assert.match(errorText(await call('memory_save', { content: 'ok', tags: ['has space'] })), /tag/);
  assert.match(errorText(await call('memory_browse', { cursor: 'abc' })), /cursor/);
  for (let i = 0; i < 60; i += 1) await store.save({ content: `clamp note ${i}` }, {});
  assert.equal((body(await call('memory_search', { query: 'clamp', limit: 1000 })).hits as unknown[]).length, 50);
  assert.equal((body(await call('memory_search', { query: 'clamp', limit: -3 })).hits as unknown[]).length, 1);
  assert.equal((body(await call('memory_browse', { limit: 2.7 })).memories as unknown[]).length, 2);
  assert.deepEqual(body(await call('memory_search', { query: '"(*' })).hits, []);
});

void test(`${P} fuzzed tool arguments never crash the server (property)`, async (t) => {
  const { store } = memoryFixture(t);
  await store.save({ content: 'fuzz seed row' }, { teamId: 'T1' });
  const { call } = await connect(t, store, { scopeTeamId: 'T1' });
  const value = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 10 }), { maxLength: 20 }),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const key = fc.constantFrom('content', 'title', 'kind', 'tags', 'query', 'limit', 'cursor', 'teamId', 'agentId', 'tenantId', '__proto__', 'extra');
  const args = fc.dictionary(key, value, { maxKeys: 6 });
  const name = fc.constantFrom('memory_save', 'memory_search', 'memory_browse');
  await fc.assert(
    fc.asyncProperty(name, args, async (n, a) => {
      const r = await call(n, a);
      assert.ok(Array.isArray(r.content) && r.content.length > 0);
      if (r.isError !== true) assert.ok(r.structuredContent);
    }),
    { numRuns: 300 },
  );
  // Still serving, and still bound.
  const after = body(await call('memory_browse', { limit: 50 }));
  assert.ok((after.memories as Array<{ teamId: string }>).every((m) => m.teamId === 'T1'));
  assert.equal(store.browse({}, { limit: 50 }).memories.filter((m) => m.teamId !== 'T1').length, 0, 'no fuzzed save escaped the binding');
});
