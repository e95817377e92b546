// GET /api/mcp/config?agentId= (beyond the spec, issue 15 #6): the attach
// snippet for one agent carries a binding minted for it. The query's
// `agentId` (and optional `teamId`, `taskId`, `tenantId`, bound with it) are
// validated here; each call mints a new token, since svc keeps only hashes
// and cannot show an old one again. Earlier tokens stay valid.
import { z } from 'zod';
import { MintAgentTokenInput, type AgentTokenStore, type MintAgentToken } from '../agent-tokens/index.ts';
import { invalid } from '../errors.ts';

const FIELDS = ['agentId', 'teamId', 'taskId', 'tenantId'] as const;

/** The binding fields of the config query (each checked below); absent means "no binding". */
export const McpConfigQuery = z.object({ agentId: z.unknown(), teamId: z.unknown(), taskId: z.unknown(), tenantId: z.unknown() }).partial();

/** What the query asks to bind, or null when it names no agent; a DomainError (400) for a bad value. */
export function bindingRequest(query: unknown): MintAgentToken | null {
  const q = McpConfigQuery.parse(typeof query === 'object' && query !== null ? query : {});
  for (const f of FIELDS) {
    if (q[f] !== undefined && typeof q[f] !== 'string') throw invalid(`${f} must be given once, as one id`);
  }
  if (q.agentId === undefined) {
    const stray = FIELDS.find((f) => q[f] !== undefined);
    if (stray) throw invalid(`${stray} binds only with agentId: it is a field of an agent's binding`);
    return null;
  }
  const parsed = MintAgentTokenInput.safeParse(q);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`invalid ${issue?.path.map(String).join('.') || 'binding'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Mints the MCP binding the query asks for (null when it names no agent). */
export function mintAttachBinding(tokens: Pick<AgentTokenStore, 'mint'>, query: unknown): { token: string; agentId: string } | null {
  const req = bindingRequest(query);
  if (!req) return null;
  const { token, binding } = tokens.mint('mcp', req);
  return { token, agentId: binding.agentId };
}
