// The names svc gives what it attaches to a gateway agent: one
// `mcp.servers` entry per agent and svc MCP server, and the `.env` variable
// that holds the agent's minted binding.
//
// The gateway names an MCP tool `<server>__<tool>` for the model, with the
// server part lowercased, limited to [a-z0-9_-] and to 30 characters (longer
// or clashing prefixes get truncated or suffixed; docs/gateway-facts.md, "MCP
// tools"), and agents deny each other's entries by that prefix. So an entry
// name is built to pass through unchanged: `svc-<agent>-<server>`, lowercase,
// at most 30 characters, the agent part hashed when it would not fit or would
// change.
import { createHash } from 'node:crypto';
import { MCP_SERVER_NAMES, type McpServerName } from '../mcp/types.ts';

/** What the longest server name leaves for the agent part: 30 - 'svc-'.length - '-teamchat'.length. */
const AGENT_PART_MAX = 30 - 4 - 1 - Math.max(...MCP_SERVER_NAMES.map((s) => s.length));

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 6);

/** The agent part of its entry names: the id itself when it is short, lowercase and plain; else a prefix and a hash. */
export function agentPart(gatewayId: string): string {
  const plain = gatewayId.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  if (plain === gatewayId && plain.length <= AGENT_PART_MAX) return plain;
  return `${plain.slice(0, AGENT_PART_MAX - 7)}-${shortHash(gatewayId)}`;
}

/** `svc-<agent>-<server>`: the `mcp.servers` key svc writes for one agent and server. */
export const entryName = (gatewayId: string, server: McpServerName): string => `svc-${agentPart(gatewayId)}-${server}`;

/** The tool-name glob that denies every tool of an entry. */
export const denyPattern = (entry: string): string => `${entry}__*`;

/**
 * The `.env` variable holding an agent's binding: it names the binding it
 * holds, because the gateway keeps the first value it read for a name until
 * it restarts, so a new binding must come under a new name.
 */
export const bindingEnvName = (gatewayId: string, tokenId: string): string =>
  `SVC_MCP_BINDING_${agentPart(gatewayId).toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${tokenId.replace(/[^A-Za-z0-9]/g, '').slice(-8).toUpperCase()}`;
