// The mcpServersHealthy probe (spec "Settings and health"): build the server
// from its factory, connect an SDK Client over an in-memory linked pair and
// ask `tools/list`. Nothing crosses a socket and nothing stays open.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpProbe } from '../health/types.ts';
import type { McpContext, McpServerFactory } from './types.ts';

export const PROBE_TIMEOUT_MS = 5000;

export async function listToolNames(factory: McpServerFactory, ctx: McpContext): Promise<string[]> {
  const server = factory(ctx, {});
  const client = new Client({ name: 'svc-health', version: ctx.config.version });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide);
    await client.connect(clientSide, { timeout: PROBE_TIMEOUT_MS });
    const { tools } = await client.listTools(undefined, { timeout: PROBE_TIMEOUT_MS });
    return tools.map((t) => t.name);
  } catch (err) {
    // An McpServer with no tool registered yet offers no tools capability and
    // answers "method not found": it is up and answering, with no tools.
    if (err instanceof McpError && err.code === ErrorCode.MethodNotFound) return [];
    throw err;
  } finally {
    await client.close();
    await server.close();
  }
}

export function mcpProbe(name: string, factory: McpServerFactory, ctx: McpContext): McpProbe {
  return { name, listTools: () => listToolNames(factory, ctx) };
}
