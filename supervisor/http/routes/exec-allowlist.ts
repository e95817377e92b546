// Spec "Smaller resources", standing exec grants: the read-only view of one
// agent's allowlist bucket (never through the gateway) and the rate-limited
// revoke. Outcomes map to statuses here; the decisions live in shared/exec.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createLastReadStore, readAgentAllowlist, revokeGrants, type RevokeOutcome } from '../../../shared/exec/index.ts';
import { gatewayPaths } from '../../../shared/paths.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError, badRequest } from '../http-error.ts';
import { objectBody } from '../validate.ts';

export const REVOKE_MAX_KEYS = 200;
export const REVOKE_RATE = { max: 60, timeWindow: 60_000 } as const;

export const EXEC_ALLOWLIST_ERRORS = {
  agentIdRequired: 'agentId required',
  agentNotFound: 'agent not found',
  bodyRequired: 'JSON object body required',
  keysArray: 'keys must be an array of strings',
  keysCount: `keys must hold 1 to ${REVOKE_MAX_KEYS} keys`,
  keyEmpty: 'keys must be non-empty strings',
  notGateway: 'exec grants apply only to gateway-runtime agents with a gateway agent id',
  unreadable: 'the exec approvals document could not be read',
  blockedWildcard: 'some keys are in the fleet-wide (*) allowlist, which cannot be revoked here; nothing was revoked',
  alreadyAbsent: "none of the keys is in this agent's allowlist; nothing was written",
  noSuchAgent: 'the exec approvals document has no allowlist bucket for this agent',
  notVerified: "the gateway's reply after the write does not confirm the revoke; re-read before acting",
} as const;
const E = EXEC_ALLOWLIST_ERRORS;

const AgentIdQuery = z.object({ agentId: z.string().trim().min(1) });
const RevokeBody = z.object({
  agentId: z.string({ error: E.agentIdRequired }).trim().min(1, E.agentIdRequired),
  keys: z
    .array(z.string({ error: E.keyEmpty }).refine((k) => k.trim().length > 0, E.keyEmpty), { error: E.keysArray })
    .min(1, E.keysCount)
    .max(REVOKE_MAX_KEYS, E.keysCount),
});

function reply(outcome: RevokeOutcome, agentId: string): Record<string, unknown> {
  switch (outcome.outcome) {
    case 'revoked':
      return outcome;
    case 'blocked-wildcard':
      throw new HttpError(409, E.blockedWildcard, { outcome: outcome.outcome, agentId, keys: outcome.keys });
    case 'already-absent':
      throw new HttpError(409, E.alreadyAbsent, { outcome: outcome.outcome, agentId, keys: outcome.keys });
    case 'no-such-agent':
      throw new HttpError(409, E.noSuchAgent, { outcome: outcome.outcome, agentId });
    case 'not-applicable':
      throw badRequest(E.notGateway);
    case 'unreadable':
      throw new HttpError(502, E.unreadable, { state: 'unreadable', agentId, reason: outcome.reason });
    case 'not-verified':
      throw new HttpError(502, E.notVerified, { outcome: outcome.outcome, agentId, reason: outcome.reason, stillPresent: outcome.stillPresent });
    case 'gateway-error':
      throw new HttpError(502, `gateway call failed: ${outcome.message}`, { outcome: outcome.outcome, agentId, code: outcome.code });
  }
}

export function execAllowlistRoutes(app: FastifyInstance, deps: AppDeps): void {
  const stateDb = gatewayPaths(deps.config.gatewayStateDir).stateDb;
  const lastRead = createLastReadStore(deps.db);
  const agentOr404 = (id: string) => {
    const agent = deps.domain.agents.get(id);
    if (!agent) throw new HttpError(404, E.agentNotFound);
    return agent;
  };

  // An encapsulated scope so the sensitive-tier limit applies to the revoke only.
  void app.register(async (scope) => {
    await scope.register(rateLimit, { global: false });

    // Registered before /api/exec-allowlist (the spec's order).
    scope.post(
      '/api/exec-allowlist/revoke',
      { config: { badJsonMessage: E.bodyRequired, rateLimit: REVOKE_RATE } },
      async (req) => {
        const body = RevokeBody.safeParse(objectBody(req.body, E.bodyRequired));
        if (!body.success) throw badRequest(body.error.issues[0]?.message ?? E.bodyRequired);
        const agent = agentOr404(body.data.agentId);
        const outcome = await revokeGrants(agent, body.data.keys, {
          stateDb,
          call: (method, params, opts) => deps.gatewayLink.call(method, params, opts),
        });
        if (outcome.outcome === 'gateway-error') {
          deps.logger.warn({ agentId: agent.id, code: outcome.code, error: deps.redactor.text(outcome.message) }, 'exec grant revoke: gateway call failed');
        } else if (outcome.outcome === 'not-verified' || outcome.outcome === 'unreadable') {
          deps.logger.warn({ agentId: agent.id, outcome: outcome.outcome, reason: outcome.reason }, 'exec grant revoke did not complete');
        }
        return reply(outcome, agent.id);
      },
    );

    scope.get('/api/exec-allowlist', async (req) => {
      const q = AgentIdQuery.safeParse(req.query);
      if (!q.success) throw badRequest(E.agentIdRequired);
      const view = readAgentAllowlist(agentOr404(q.data.agentId), {
        stateDb,
        lastRead,
        redact: (s) => deps.redactor.text(s),
        onUnreadable: (info) => deps.logger.warn({ agentId: q.data.agentId, ...info }, 'gateway exec approvals document unreadable'),
      });
      // The spec's 502 body: the message beside the view's document-wide counts (and deliberately no entries).
      if (view.state === 'unreadable') throw new HttpError(502, E.unreadable, view);
      return view;
    });
  });
}
