// Session binding (spec "Tools broker and MCP → Session binding"): which
// attach-URL query parameters (HTTP) or environment variables (stdio) bind a
// session, read once when the session starts. The binding record's keys are
// the query parameter names on both transports, so a server factory reads
// `binding.roomTeamId` whichever way it was attached.
import type { McpBinding, McpServerName } from './types.ts';

export interface BindingParam {
  /** The attach URL's query parameter (and the key in McpBinding). */
  query: string;
  /** The stdio binary's environment variable. */
  env: string;
}

export const BINDING_PARAMS: Readonly<Record<McpServerName, readonly BindingParam[]>> = Object.freeze({
  tasks: [],
  // Beyond the spec's table (which lists none for tools): the caller's
  // identity for the broker's audit rows and approvals, fixed for the session.
  tools: [
    { query: 'agentId', env: 'SVC_MCP_AGENT_ID' },
    { query: 'taskId', env: 'SVC_MCP_TASK_ID' },
    { query: 'tenantId', env: 'SVC_MCP_TENANT_ID' },
  ],
  memory: [
    { query: 'scopeTeamId', env: 'SVC_MCP_SCOPE_TEAM_ID' },
    { query: 'scopeAgentId', env: 'SVC_MCP_SCOPE_AGENT_ID' },
    { query: 'scopeTenantId', env: 'SVC_MCP_SCOPE_TENANT_ID' },
  ],
  teamchat: [
    { query: 'roomTeamId', env: 'SVC_MCP_ROOM_TEAM_ID' },
    { query: 'postAuthorAgentId', env: 'SVC_MCP_POST_AUTHOR_AGENT_ID' },
  ],
});

/** A binding value is an id: at most this many characters. */
export const BINDING_VALUE_MAX = 200;

export class BindingError extends Error {
  constructor(readonly param: string) {
    super(`invalid binding parameter ${param}: expected one id of 1 to ${BINDING_VALUE_MAX} characters`);
    this.name = 'BindingError';
  }
}

/**
 * Reads the binding from `read(name)` for each of the server's parameters:
 * absent or blank is unbound; anything but one string of at most 200
 * characters (a repeated query parameter, an over-long value) is refused.
 */
function readBinding(
  server: McpServerName,
  read: (p: BindingParam) => unknown,
  label: (p: BindingParam) => string,
): McpBinding {
  const out: Record<string, string> = {};
  for (const p of BINDING_PARAMS[server]) {
    const raw = read(p);
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'string' || raw.length > BINDING_VALUE_MAX) throw new BindingError(label(p));
    const v = raw.trim();
    if (v !== '') out[p.query] = v;
  }
  return Object.freeze(out);
}

/** The binding from an initialize request's parsed URL query. */
export function bindingFromQuery(server: McpServerName, query: unknown): McpBinding {
  const q = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  return readBinding(server, (p) => (Object.hasOwn(q, p.query) ? q[p.query] : undefined), (p) => p.query);
}

/** The binding of a stdio binary from its environment (`lookup` reads one variable). */
export function bindingFromEnv(server: McpServerName, lookup: (name: string) => string | undefined): McpBinding {
  return readBinding(server, (p) => lookup(p.env), (p) => p.env);
}
