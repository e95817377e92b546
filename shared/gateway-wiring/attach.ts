// The attach part of what svc wires into the gateway (issue 30 item 2): svc's
// four MCP servers, attached to every gateway agent on one of svc's teams,
// one `mcp.servers` entry per agent and server carrying that agent's minted
// binding (`X-Svc-Mcp-Binding: ${SVC_MCP_BINDING_…}`, the value in the
// gateway's .env), so every task, memory and post knows its agent.
//
// The gateway's `mcp.servers` are global: every agent would be offered every
// entry, each entry speaking as its own agent. So each gateway agent denies
// the entries that are not its own (`agents.entries.<id>.tools.deny`, the only
// per-agent control OpenClaw 2026.9 has: docs/gateway-facts.md, "MCP attach");
// svc adds its patterns to a list and keeps every pattern a person wrote.
// Everything svc writes is in the ledger; what it did not write it never
// touches.
import { getPath, type JsonObject } from '../gateway/config-file.ts';
import { MCP_BINDING_HEADER } from '../mcp/binding.ts';
import { MCP_SERVER_NAMES } from '../mcp/types.ts';
import { OpList, type ConfigOp } from './config-ops.ts';
import { denyPattern, entryName } from './attach-names.ts';
import type { WiringLedger } from './ledger.ts';

/** An agent to attach: its gateway id, and the svc agent (and team) its binding names. */
export interface AttachTarget {
  gatewayId: string;
  svcAgentId: string;
  teamId: string | null;
}

export type Binding = WiringLedger['bindings'][number];

export interface AttachInput {
  config: JsonObject;
  /** Null: attach nothing (the wiring or the attach setting is off, or svc cannot reach the gateway's .env). */
  targets: readonly AttachTarget[] | null;
  /** Every agent the gateway has (the deny lists go on all of them). */
  gatewayAgents: readonly string[];
  /** `http://127.0.0.1:<svc port>`. */
  baseUrl: string;
  ledger: WiringLedger;
  /** The binding to use for a target (kept, or minted by the caller); the plan names it in the entries. */
  bindingFor: (target: AttachTarget) => Binding;
}

export interface AttachPlan {
  ops: ConfigOp[];
  servers: WiringLedger['servers'];
  deny: WiringLedger['deny'];
  bindings: WiringLedger['bindings'];
}

const serverPath = (name: string): string[] => ['mcp', 'servers', name];
const denyPath = (agent: string): string[] => ['agents', 'entries', agent, 'tools', 'deny'];

/** The entry svc writes for one agent and server. */
export function attachEntry(baseUrl: string, server: string, envName: string): JsonObject {
  return { transport: 'streamable-http', url: `${baseUrl}/api/mcp/${server}`, headers: { [MCP_BINDING_HEADER]: `\${${envName}}` } };
}

export function planAttach(input: AttachInput): AttachPlan {
  const { config, ledger } = input;
  const ops = new OpList(config);
  const bindings = (input.targets ?? []).map((t) => input.bindingFor(t));
  const byAgent = new Map(bindings.map((b) => [b.agent, b] as const));
  const owned = new Set(ledger.servers.map((s) => s.name));
  const servers: WiringLedger['servers'] = [];
  for (const target of input.targets ?? []) {
    const binding = byAgent.get(target.gatewayId) as Binding;
    for (const server of MCP_SERVER_NAMES) {
      const name = entryName(target.gatewayId, server);
      // An entry of that name that svc did not write is a person's: left alone, and this agent is not attached by svc.
      if (!owned.has(name) && getPath(config, serverPath(name)) !== undefined) continue;
      servers.push({ name, agent: target.gatewayId });
      ops.set(serverPath(name), attachEntry(input.baseUrl, server, binding.envName));
    }
  }
  const wanted = new Set(servers.map((s) => s.name));
  for (const s of ledger.servers) if (!wanted.has(s.name)) ops.remove(serverPath(s.name));

  // Each agent denies every svc entry that is not its own; patterns svc added earlier and no longer wants go.
  const previous = new Map(ledger.deny.map((d) => [d.agent, d] as const));
  const deny: WiringLedger['deny'] = [];
  const agents = new Set([...input.gatewayAgents, ...previous.keys()]);
  for (const agent of agents) {
    const mine = previous.get(agent);
    const current = getPath(config, denyPath(agent));
    // A deny that is not a list is a person's own shape: svc cannot add to it without changing its meaning.
    if (current !== undefined && !Array.isArray(current)) continue;
    const list = (current ?? []) as unknown[];
    const theirs = list.filter((p) => !(typeof p === 'string' && mine?.patterns.includes(p)));
    const patterns = input.gatewayAgents.includes(agent) ? servers.filter((s) => s.agent !== agent).map((s) => denyPattern(s.name)) : [];
    const add = patterns.filter((p) => !theirs.includes(p));
    const created = mine ? mine.created : current === undefined;
    const next = [...theirs, ...add];
    if (next.length === 0 && created) ops.remove(denyPath(agent));
    else if (current !== undefined || next.length > 0) ops.set(denyPath(agent), next);
    if (add.length > 0) deny.push({ agent, patterns: add, created });
  }
  const isEntryOwner = (b: Binding) => servers.some((s) => s.agent === b.agent);
  return { ops: ops.list, servers, deny, bindings: bindings.filter(isEntryOwner) };
}
