// The MCP folder's public surface: the four server factories, their session
// binding, the health probe, the stdio runner and the attach snippets.
export {
  BINDING_PARAMS, BINDING_VALUE_MAX, BindingError, MCP_BINDING_ENV, MCP_BINDING_HEADER, RETIRED_PARAMS,
  bindingFromEnv, bindingFromQuery, httpSessionBinding, stdioSessionBinding, withMinted,
} from './binding.ts';
export type { BindingParam } from './binding.ts';
export { MCP_RUNTIMES, MCP_TRANSPORTS, TOKEN_PLACEHOLDER, entrySuffix, mcpAttachConfig, shellWord } from './config-snippet.ts';
export { McpConfigQuery, mintAttachBinding } from './attach-binding.ts';
export type { AttachConfig, AttachInput, McpRuntime, McpTransport } from './config-snippet.ts';
export { createMcpContext, stdioRedactor } from './context.ts';
export type { OwnedMcpContext } from './context.ts';
export { PROBE_TIMEOUT_MS, listToolNames, mcpProbe } from './probe.ts';
export { errorResult, okResult, runTool, toolFailure } from './results.ts';
export { MCP_SERVER_FACTORIES, isMcpServerName } from './servers.ts';
export { runStdio } from './stdio.ts';
export { createTasksServer } from './tasks-server.ts';
export { SUBSCRIBE_WAIT_MAX_MS, createTeamChatServer, teamChatBinding } from './teamchat-server.ts';
export type { TeamChatBinding } from './teamchat-server.ts';
export { MCP_SERVER_NAMES } from './types.ts';
export type { McpBinding, McpContext, McpServerFactory, McpServerName } from './types.ts';
