// Who a session is, and the one rule all four MCP servers apply to tool
// arguments that name an agent (issue 30 #2; spec "Session binding": the
// model cannot spoof identity through tool arguments).
//  - A session attached with a minted binding (binding.ts) is the agent that
//    binding names. Only a minted binding makes an identity: the spec's
//    query parameters (teamchat's postAuthorAgentId, memory's scopeAgentId)
//    can be written by anyone, so they bind a room or a scope, not an agent.
//  - In such a session an argument that names who acts (a task's creator,
//    a claimer, a comment's or post's author, memory's or a brokered tool's
//    agentId) must name the bound agent or be left out (absent, null or
//    blank); either way the tool acts as the bound agent. Naming another
//    agent is refused with an error result (status 403, as memory's scope
//    refusal) before anything is written. Arguments that name whom work goes
//    to (assigneeAgentId) or what to read (list_tasks' filters) are not
//    identity and stay free.
//  - A session without a minted binding has no identity (the spec's attach
//    snippets carry none): its arguments apply as they always did.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MINTED_KEYS } from './binding.ts';
import { errorResult } from './results.ts';
import type { McpBinding, McpServerName } from './types.ts';

/**
 * The argument names that say who acts, checked on tools whose schemas are
 * not svc's own to list one by one (the brokered tools of the tools server).
 */
export const ACTING_AGENT_ARGUMENTS: readonly string[] = Object.freeze(['agentId', 'authorAgentId', 'createdByAgentId', 'actorAgentId', 'fromAgentId']);

/** The agent the session's minted binding names; null for a session without one. */
export function boundAgentOf(server: McpServerName, binding: McpBinding): string | null {
  if (!binding.agentTokenId) return null;
  const key = MINTED_KEYS[server].agentId;
  return (key !== undefined ? binding[key] : undefined) ?? null;
}

const otherAgentMessage = (bound: string, argument: string): string =>
  `this session is bound to agent ${bound}: ${argument} cannot name another agent (leave it out, or give ${bound})`;

/** Whether an argument names an agent other than `bound`: ids compare trimmed, and a blank one names no one. */
function namesAnother(named: unknown, bound: string): boolean {
  if (named === undefined || named === null) return false;
  if (typeof named !== 'string') return true;
  const id = named.trim();
  return id !== '' && id !== bound;
}

/**
 * The refusal when one of `keys` in `args` names another agent than the
 * session's bound one; null when the call may go on (no bound agent, or
 * every such argument left out or equal to it).
 */
export function otherAgentRefusal<A extends object>(bound: string | null, args: A, keys: ReadonlyArray<keyof A & string>): CallToolResult | null {
  if (bound === null) return null;
  const key = keys.find((k) => namesAnother(args[k], bound));
  return key === undefined ? null : errorResult(otherAgentMessage(bound, key), { status: 403 });
}

/**
 * The agent a tool acts as, once otherAgentRefusal let the call go on: the
 * bound agent (the argument was left out or named it), else what an unbound
 * session's argument says, else none.
 */
export const actingAgent = (bound: string | null, named: string | null | undefined): string | null => bound ?? named ?? null;
