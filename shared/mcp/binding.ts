// Session binding (spec "Tools broker and MCP → Session binding", plus issue
// 15 #6): what a session is bound to, read once when it starts.
//  - The spec's query parameters (HTTP) or SVC_MCP_* variables (stdio) bind
//    memory's scope and teamchat's room and author, as the spec's table says.
//    Anyone can write them, so they never make an identity that approvals
//    trust.
//  - A minted binding (an agent token svc minted, agent-tokens/, given to the
//    agent through GET /api/mcp/config?agentId=) is the only source of an
//    agent identity: presented in the X-Svc-Mcp-Binding header (HTTP) or
//    SVC_MCP_BINDING (stdio), it binds the tools server's agentId, taskId and
//    tenantId, memory's scopeAgentId (and scopeTeamId/scopeTenantId when it
//    has them) and teamchat's postAuthorAgentId (and roomTeamId).
//  - The tools server's old agentId/taskId/tenantId parameters (SVC_MCP_AGENT_ID,
//    ...) let any process claim any agent: they are refused, with a message
//    saying how to get a binding.
// The binding record's keys are the query parameter names on both
// transports, so a server factory reads `binding.roomTeamId` whichever way it
// was attached; `agentTokenId` is set only from a minted binding.
import type { AgentTokenBinding, AgentTokenStore } from '../agent-tokens/index.ts';
import type { McpBinding, McpServerName } from './types.ts';

export interface BindingParam {
  /** The attach URL's query parameter (and the key in McpBinding). */
  query: string;
  /** The stdio binary's environment variable. */
  env: string;
}

/** The header (HTTP) and variable (stdio) that carry a minted binding. */
export const MCP_BINDING_HEADER = 'X-Svc-Mcp-Binding';
export const MCP_BINDING_ENV = 'SVC_MCP_BINDING';

export const BINDING_PARAMS: Readonly<Record<McpServerName, readonly BindingParam[]>> = Object.freeze({
  tasks: [],
  tools: [],
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

/** The tools server's former identity parameters: refused, since anyone could pick them. */
export const RETIRED_PARAMS: Readonly<Partial<Record<McpServerName, readonly BindingParam[]>>> = Object.freeze({
  tools: [
    { query: 'agentId', env: 'SVC_MCP_AGENT_ID' },
    { query: 'taskId', env: 'SVC_MCP_TASK_ID' },
    { query: 'tenantId', env: 'SVC_MCP_TENANT_ID' },
  ],
});

/** Which binding key a minted binding's field fills, per server (bound-identity.ts reads the agent's). */
export const MINTED_KEYS: Readonly<Record<McpServerName, Partial<Record<'agentId' | 'teamId' | 'taskId' | 'tenantId', string>>>> = Object.freeze({
  tasks: { agentId: 'creatorAgentId' },
  tools: { agentId: 'agentId', taskId: 'taskId', tenantId: 'tenantId' },
  memory: { agentId: 'scopeAgentId', teamId: 'scopeTeamId', tenantId: 'scopeTenantId' },
  teamchat: { agentId: 'postAuthorAgentId', teamId: 'roomTeamId' },
});

/** A binding value is an id: at most this many characters. */
export const BINDING_VALUE_MAX = 200;

/** A session svc refuses to start: the message is the 400's (HTTP) or the binary's fatal line (stdio). */
export class BindingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BindingError';
  }
}

const invalidParam = (label: string) =>
  new BindingError(`invalid binding parameter ${label}: expected one id of 1 to ${BINDING_VALUE_MAX} characters`);

const howToBind = (server: McpServerName, transport: 'http' | 'stdio') =>
  transport === 'http'
    ? `ask svc for a binding (GET /api/mcp/config?server=${server}&agentId=<agent>) and send it in the ${MCP_BINDING_HEADER} header`
    : `ask svc for a binding (GET /api/mcp/config?server=${server}&transport=stdio&agentId=<agent>) and set ${MCP_BINDING_ENV}`;

/**
 * Reads the spec's binding from `read(name)` for each of the server's
 * parameters: absent or blank is unbound; anything but one string of at
 * most 200 characters (a repeated query parameter, an over-long value) is
 * refused, and so is any retired identity parameter.
 */
function readBinding(
  server: McpServerName,
  transport: 'http' | 'stdio',
  read: (p: BindingParam) => unknown,
  label: (p: BindingParam) => string,
): Record<string, string> {
  for (const p of RETIRED_PARAMS[server] ?? []) {
    const raw = read(p);
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) continue;
    throw new BindingError(`${label(p)} no longer binds an identity (any caller could choose it): ${howToBind(server, transport)}`);
  }
  const out: Record<string, string> = {};
  for (const p of BINDING_PARAMS[server]) {
    const raw = read(p);
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'string' || raw.length > BINDING_VALUE_MAX) throw invalidParam(label(p));
    const v = raw.trim();
    if (v !== '') out[p.query] = v;
  }
  return out;
}

/** The spec's binding from an initialize request's parsed URL query (no minted binding). */
export function bindingFromQuery(server: McpServerName, query: unknown): McpBinding {
  const q = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  return Object.freeze(readBinding(server, 'http', (p) => (Object.hasOwn(q, p.query) ? q[p.query] : undefined), (p) => p.query));
}

/** The spec's binding of a stdio binary from its environment (`lookup` reads one variable; no minted binding). */
export function bindingFromEnv(server: McpServerName, lookup: (name: string) => string | undefined): McpBinding {
  return Object.freeze(readBinding(server, 'stdio', (p) => lookup(p.env), (p) => p.env));
}

/**
 * Lays a minted binding over the spec's: its agent (and team, task, tenant
 * where the server has such a key) fill the session's keys. A parameter
 * that names a different value for a key the minted binding fills is
 * refused rather than silently dropped; an equal one changes nothing.
 */
export function withMinted(server: McpServerName, plain: McpBinding, minted: AgentTokenBinding | null): McpBinding {
  if (!minted) return plain;
  const out: Record<string, string | undefined> = { ...plain };
  const keys = MINTED_KEYS[server];
  for (const field of ['agentId', 'teamId', 'taskId', 'tenantId'] as const) {
    const key = keys[field];
    const value = minted[field];
    if (key === undefined || value === null) continue;
    if (plain[key] !== undefined && plain[key] !== value) {
      throw new BindingError(`${key} conflicts with the session's binding: leave it out, the binding sets it`);
    }
    out[key] = value;
  }
  out.agentTokenId = minted.id;
  return Object.freeze(out);
}

/** The minted binding a presented token names; BindingError for a malformed, unknown or revoked one. */
function mintedFrom(tokens: Pick<AgentTokenStore, 'verify'>, presented: unknown, label: string): AgentTokenBinding | null {
  if (presented === undefined || presented === null) return null;
  if (typeof presented !== 'string') throw new BindingError(`${label} must be sent once`);
  const token = presented.trim();
  if (token === '') return null;
  const minted = tokens.verify('mcp', token);
  if (!minted) throw new BindingError(`${label} is not a binding svc knows (unknown or revoked): ask svc for a new one`);
  return minted;
}

/** An HTTP session's binding at initialize: the query, plus the minted binding in the header if one is presented. */
export function httpSessionBinding(
  server: McpServerName,
  query: unknown,
  header: string | string[] | undefined,
  tokens: Pick<AgentTokenStore, 'verify'>,
): McpBinding {
  const plain = bindingFromQuery(server, query);
  return withMinted(server, plain, mintedFrom(tokens, header, MCP_BINDING_HEADER));
}

/** A stdio binary's binding: SVC_MCP_* variables, plus the minted binding in SVC_MCP_BINDING if set. */
export function stdioSessionBinding(
  server: McpServerName,
  lookup: (name: string) => string | undefined,
  tokens: Pick<AgentTokenStore, 'verify'>,
): McpBinding {
  const plain = bindingFromEnv(server, lookup);
  return withMinted(server, plain, mintedFrom(tokens, lookup(MCP_BINDING_ENV), MCP_BINDING_ENV));
}
