// Spec "Tools broker and MCP → /api/tools*". Routes only: validation here,
// rules in shared/broker. Error strings are redacted by the one error handler
// (plugins/errors.ts), as the spec asks for /api/tools*.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AuditQuery, ResolveBody } from '../../../shared/broker/index.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError, badRequest } from '../http-error.ts';
import { operatorPrincipal } from '../operator-principal.ts';

const INVALID_BODY = 'invalid body';

export function toolsRoutes(app: FastifyInstance, { broker }: AppDeps): void {
  app.get('/api/tools', async () => ({ ok: true, tools: broker.tools() }));

  app.get('/api/tools/approvals', async () => ({ ok: true, approvals: broker.pendingApprovals() }));

  app.post<{ Params: { id: string } }>('/api/tools/approvals/:id/resolve', { config: { badJsonMessage: INVALID_BODY } }, async (req) => {
    const body = ResolveBody.safeParse(req.body);
    if (!body.success) throw badRequest(INVALID_BODY, { details: z.flattenError(body.error) });
    // The route acts for the person at the dashboard (behind the gate when it is on): an operator.
    const approval = broker.resolveApproval(operatorPrincipal('http'), req.params.id, body.data.decision);
    if (!approval) throw new HttpError(404, 'approval not found');
    return { ok: true, approval };
  });

  app.get('/api/tools/audit', async (req) => {
    const query = AuditQuery.parse(req.query ?? {});
    return { ok: true, audit: broker.audit(query) };
  });
}
