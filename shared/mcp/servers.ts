// Which factory serves which MCP server name: the one table the HTTP host,
// the health probes and the stdio binaries all read.
import { createMemoryServer } from './memory-server.ts';
import { createTasksServer } from './tasks-server.ts';
import { createTeamChatServer } from './teamchat-server.ts';
import { createToolsServer } from './tools-server.ts';
import { MCP_SERVER_NAMES, type McpServerFactory, type McpServerName } from './types.ts';

export const MCP_SERVER_FACTORIES: Readonly<Record<McpServerName, McpServerFactory>> = Object.freeze({
  tasks: createTasksServer,
  memory: createMemoryServer,
  tools: createToolsServer,
  teamchat: createTeamChatServer,
});

export const isMcpServerName = (name: unknown): name is McpServerName =>
  typeof name === 'string' && (MCP_SERVER_NAMES as readonly string[]).includes(name);
