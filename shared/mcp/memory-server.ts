// The memory MCP server: memory_save, memory_search, memory_browse over the
// memory store (shared/memory). The session's binding (scopeTeamId,
// scopeAgentId, scopeTenantId) is read once here; shared/memory/scope.ts says
// how tool arguments combine with it (a bound session's scope cannot be
// widened: a conflicting argument is refused with an error result). A
// session bound to an agent by a minted binding first meets the rule every
// server applies (bound-identity.ts): an agentId naming another agent is
// refused. Every failure is an MCP error result (isError), never a thrown
// handler.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '../log.ts';
import {
  MEMORY_LIMITS as L,
  memoryStoreFor,
  readScope,
  saveScope,
  sessionScope,
  type Memory,
  type MemoryScope,
  type MemoryStore,
  type SearchHit,
} from '../memory/index.ts';
import type { Redactor } from '../redact.ts';
import { boundAgentOf, otherAgentRefusal } from './bound-identity.ts';
import { errorResult, okResult, toolFailure } from './results.ts';
import type { McpBinding, McpServerFactory } from './types.ts';

const ScopeId = z.string().min(1).max(L.scopeIdMax);
const scopeArgs = (verb: string) => ({
  teamId: ScopeId.optional().describe(`Team to ${verb}. Ignored when equal to the session's bound team; refused when it differs.`),
  agentId: ScopeId.optional().describe(`Agent to ${verb}. A bound session refuses a different value.`),
  tenantId: ScopeId.optional().describe(`Tenant to ${verb}. A bound session refuses a different value.`),
});
// Out-of-range limits are clamped to 1..50 rather than refused.
const Limit = z.number().optional().describe(`How many results (1-${L.limitMax}, default ${L.limitDefault}).`);

const SaveArgs = {
  content: z.string().min(1).max(L.contentMax).describe('What to remember (plain text).'),
  title: z.string().max(L.titleMax).optional().describe('A short title.'),
  kind: z.string().min(1).max(L.kindMax).optional().describe('One word, e.g. note, decision, fact (default note).'),
  tags: z.array(z.string().min(1).max(L.tagMax)).max(L.tagsMax).optional().describe('Single-word tags.'),
  ...scopeArgs('tag the memory with (unbound sessions only)'),
};
const SearchArgs = {
  query: z.string().max(L.queryMax).describe('Words to look for; plain text, no query syntax.'),
  limit: Limit,
  ...scopeArgs('search within'),
};
const BrowseArgs = {
  cursor: z.string().regex(/^\d{1,15}$/, 'cursor is the nextCursor of a previous page').optional().describe('nextCursor from the previous page.'),
  limit: Limit,
  ...scopeArgs('browse'),
};

export interface MemoryServerOptions {
  store: MemoryStore;
  binding: McpBinding;
  version: string;
  logger: Logger;
  redactor: Redactor;
}

const view = (m: Memory) => ({
  id: m.id,
  title: m.title,
  kind: m.kind,
  tags: m.tags,
  content: m.content,
  teamId: m.teamId,
  agentId: m.agentId,
  tenantId: m.tenantId,
  createdAt: m.createdAt,
});
const hitView = (h: SearchHit) => ({ ...view(h.memory), snippet: h.snippet, score: Math.round(h.score * 1e4) / 1e4, match: h.match });

/** The memory server over a given store (the factory below uses the connection's shared store). */
export function buildMemoryServer({ store, binding, version, logger, redactor }: MemoryServerOptions): McpServer {
  const session = sessionScope(binding);
  const agent = boundAgentOf('memory', binding);
  const server = new McpServer(
    { name: 'svc-memory', version },
    {
      instructions: session.bound
        ? `Memory bound to ${JSON.stringify(session.scope)}: saves are tagged with it and only memories within it are visible.`
        : 'Memory (unbound): teamId, agentId and tenantId arguments tag saves and filter reads; without them every memory is visible.',
    },
  );

  // The store's own validation (a blank content, a tag with a space) reads as
  // an invalid-input refusal; anything else goes to the shared failure mapping
  // (logged, redacted, a SQLite failure named by its code only).
  const guarded = <A>(tool: string, fn: (args: A) => Promise<CallToolResult> | CallToolResult) => async (args: A): Promise<CallToolResult> => {
    try {
      return await fn(args);
    } catch (err) {
      if (err instanceof z.ZodError) return errorResult(redactor.text(z.prettifyError(err)), { status: 400 });
      return toolFailure({ logger, redactor }, tool, err);
    }
  };
  const refused = (error: string): CallToolResult => errorResult(error, { status: 403 });
  const otherAgent = (a: MemoryScope): CallToolResult | null => otherAgentRefusal(agent, a, ['agentId']);
  const scopeOf = (a: MemoryScope): MemoryScope => ({ teamId: a.teamId, agentId: a.agentId, tenantId: a.tenantId });

  server.registerTool(
    'memory_save',
    { description: 'Save a memory (a note, decision or fact) for later search.', inputSchema: SaveArgs },
    guarded('memory_save', async (a) => {
      const other = otherAgent(a);
      if (other) return other;
      const scope = saveScope(session, scopeOf(a));
      if (!scope.ok) return refused(scope.error);
      const memory = await store.save({ content: a.content, title: a.title, kind: a.kind, tags: a.tags }, scope.scope);
      return okResult({ ok: true, memory: view(memory), embedded: memory.embedded });
    }),
  );

  server.registerTool(
    'memory_search',
    { description: 'Full-text search of saved memories (blended with semantic similarity when embeddings are configured); best first.', inputSchema: SearchArgs },
    guarded('memory_search', async (a) => {
      const other = otherAgent(a);
      if (other) return other;
      const scope = readScope(session, scopeOf(a));
      if (!scope.ok) return refused(scope.error);
      const hits = await store.search(a.query, scope.scope, a.limit);
      return okResult({ mode: store.mode, hits: hits.map(hitView) });
    }),
  );

  server.registerTool(
    'memory_browse',
    { description: 'Saved memories, newest first; pass nextCursor back as cursor for older ones.', inputSchema: BrowseArgs },
    guarded('memory_browse', (a) => {
      const other = otherAgent(a);
      if (other) return other;
      const scope = readScope(session, scopeOf(a));
      if (!scope.ok) return refused(scope.error);
      const page = store.browse(scope.scope, { before: a.cursor === undefined ? undefined : Number(a.cursor), limit: a.limit });
      return okResult({ memories: page.memories.map(view), nextCursor: page.nextCursor === null ? null : String(page.nextCursor) });
    }),
  );

  return server;
}

export const createMemoryServer: McpServerFactory = (ctx, binding) =>
  buildMemoryServer({
    store: memoryStoreFor({ db: ctx.db, tx: ctx.tx, logger: ctx.logger, config: ctx.config }),
    binding,
    version: ctx.config.version,
    logger: ctx.logger,
    redactor: ctx.redactor,
  });
