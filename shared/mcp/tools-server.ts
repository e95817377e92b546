// The tools MCP server: the broker's available tools (an unavailable one,
// e.g. web_search without SVC_SEARCH_URL, is not in tools/list). Every call
// goes through ctx.broker, so it is validated, decided, audited and, for a
// destructive tool, held until a human resolves the approval (or it expires,
// or the request is cancelled: `extra.signal` stops the wait).
//
// Identity: the caller is the agent of the session's minted binding (the
// X-Svc-Mcp-Binding header over HTTP, SVC_MCP_BINDING for the binary; see
// binding.ts), read once at initialize, with its taskId and tenantId. A
// session without one is anonymous (agentId null): it is asked for every
// destructive call and never holds or uses a sticky allow_always. Tool
// arguments never set the identity, and no tool here resolves an approval
// (the broker takes an operator principal for that, which no MCP code has).
// A bound session's call whose arguments name another agent (agentId,
// authorAgentId, ...: bound-identity.ts) is refused, as on every server: the
// tools' schemas are registered loose so such an argument reaches that check
// instead of being dropped unseen; the broker parses the arguments again
// with the tool's own schema, so nothing extra reaches a tool.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ModelTool } from '../broker/index.ts';
import { ACTING_AGENT_ARGUMENTS, boundAgentOf, otherAgentRefusal } from './bound-identity.ts';
import type { McpBinding, McpServerFactory } from './types.ts';

const ANNOTATIONS: Readonly<Record<ModelTool['risk'], ToolAnnotations>> = {
  safe: { destructiveHint: false, openWorldHint: false },
  external: { readOnlyHint: true, openWorldHint: true },
  destructive: { destructiveHint: true, openWorldHint: false },
};

const bound = (binding: McpBinding, key: string): string | null => {
  const v = binding[key]?.trim();
  return v ? v : null;
};

export const createToolsServer: McpServerFactory = (ctx, binding) => {
  const server = new McpServer({ name: 'svc-tools', version: ctx.config.version });
  // Only a minted binding names the agent: a binding without its token id is anonymous.
  const agentTokenId = bound(binding, 'agentTokenId');
  const who = agentTokenId
    ? { agentId: bound(binding, 'agentId'), agentTokenId, taskId: bound(binding, 'taskId'), tenantId: bound(binding, 'tenantId') }
    : { agentId: null, agentTokenId: null, taskId: null, tenantId: null };
  const agent = boundAgentOf('tools', binding);
  for (const tool of ctx.broker.modelTools()) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input.loose(), annotations: ANNOTATIONS[tool.risk] },
      async (args: Record<string, unknown>, extra): Promise<CallToolResult> => {
        const refused = otherAgentRefusal(agent, args, ACTING_AGENT_ARGUMENTS);
        if (refused) return refused;
        const result = await ctx.broker.call(tool.name, args, { ...who, signal: extra.signal });
        return { content: [{ type: 'text', text: result.text }], isError: result.isError };
      },
    );
  }
  return server;
};
