// The gateway's own agents, through svc's gateway link (beyond the spec,
// for the dashboard: a team can only talk through agents the gateway has).
// `agents.list` names them; `agents.create { name }` makes one (the gateway
// slugifies the id from the name, writes `agents.entries.<id>` and hot
// reloads it about a second later: docs/gateway-facts.md, "Creating agents
// and config reload"). Replies are parsed loosely: only the fields svc shows
// are required.
import { z } from 'zod';
import { GATEWAY_TIMEOUTS, isUnreachable, UnexpectedReplyError, type GatewayCall } from '../exec/gateway-policy.ts';

export const GATEWAY_AGENT_MESSAGES = {
  nameRequired: 'name is required (1 to 80 characters)',
} as const;

// allowAgents (issue 23): who the agent may hand work to with sessions_spawn, from openclaw.json
// (agents.list does not say); null when unset, absent when the config was not read.
export const GatewayAgent = z.object({ id: z.string(), name: z.string(), allowAgents: z.array(z.string()).nullable().optional() });
export type GatewayAgent = z.infer<typeof GatewayAgent>;

/** The rows with each agent's `subagents.allowAgents` from the parsed openclaw.json (`allowed`: readAllowAgents). */
export const withAllowAgents = (view: GatewayAgentsView, allowed: ReadonlyMap<string, string[] | null>): GatewayAgentsView => ({
  ...view,
  agents: view.agents.map((a) => ({ ...a, allowAgents: allowed.get(a.id) ?? null })),
});

/** GET /api/gateway/agents; `reachable: false` (and no agents) while svc has no gateway connection. */
export const GatewayAgentsView = z.object({ agents: z.array(GatewayAgent), defaultId: z.string().nullable(), reachable: z.boolean() });
export type GatewayAgentsView = z.infer<typeof GatewayAgentsView>;

/** POST /api/gateway/agents. */
export const CreateGatewayAgentBody = z.object({ name: z.string().trim().min(1).max(80) });

const ListReply = z.object({
  defaultId: z.string().optional(),
  agents: z.array(z.object({ id: z.string().min(1), name: z.string().optional() }).loose()),
}).loose();
const CreateReply = z.object({ agentId: z.string().min(1), name: z.string().optional() }).loose();

const UNREACHABLE: GatewayAgentsView = { agents: [], defaultId: null, reachable: false };

/**
 * The gateway's agents; a gateway svc cannot reach is an answer (`reachable:
 * false`; at once when svc has no gateway URL at all), a refusal throws.
 */
export async function listGatewayAgents(call: GatewayCall, configured: boolean): Promise<GatewayAgentsView> {
  if (!configured) return UNREACHABLE;
  let reply: unknown;
  try {
    reply = await call('agents.list', {}, GATEWAY_TIMEOUTS);
  } catch (err) {
    if (isUnreachable(err)) return UNREACHABLE;
    throw err;
  }
  const r = ListReply.safeParse(reply);
  if (!r.success) throw new UnexpectedReplyError('agents.list');
  return {
    agents: r.data.agents.map((a) => ({ id: a.id, name: a.name?.trim() || a.id })),
    defaultId: r.data.defaultId ?? null,
    reachable: true,
  };
}

/** How long a create waits for the gateway to load the new agent (it hot-reloads about a second later). */
export const CREATE_LOAD_WAIT = { attempts: 20, everyMs: 250 } as const;

/**
 * Creates the agent, then waits until `agents.list` shows it, so that an
 * answer means the agent can be talked to; `loaded: false` when the gateway
 * had not listed it within CREATE_LOAD_WAIT (it exists; it loads later).
 */
export async function createGatewayAgent(
  call: GatewayCall,
  name: string,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<{ agent: GatewayAgent; loaded: boolean }> {
  const r = CreateReply.safeParse(await call('agents.create', { name }, GATEWAY_TIMEOUTS));
  if (!r.success) throw new UnexpectedReplyError('agents.create');
  const agent = { id: r.data.agentId, name: r.data.name?.trim() || name };
  for (let i = 0; i < CREATE_LOAD_WAIT.attempts; i++) {
    const list = await listGatewayAgents(call, true);
    if (list.agents.some((a) => a.id === agent.id)) return { agent, loaded: true };
    await sleep(CREATE_LOAD_WAIT.everyMs);
  }
  return { agent, loaded: false };
}
