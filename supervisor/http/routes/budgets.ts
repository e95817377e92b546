// Spec "Governance" → the budget routes: list, upsert, resume. There is no
// delete route. Routes only: the rules (existence, status recomputed from
// spend, grace, the hard cap) are in shared/budgets.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BUDGET_MESSAGES as M, BudgetResumeBody, BudgetScope, BudgetUpsertBody } from '../../../shared/budgets/index.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest } from '../http-error.ts';

export function budgetsRoutes(app: FastifyInstance, { budgets }: AppDeps): void {
  app.get('/api/governance/budgets', async () => budgets.store.list());

  app.post('/api/governance/budgets', { config: { badJsonMessage: M.invalidBudget } }, async (req) => {
    const body = BudgetUpsertBody.safeParse(req.body ?? {});
    if (!body.success) throw badRequest(M.invalidBudget, { details: z.flattenError(body.error) });
    return budgets.store.upsert(body.data);
  });

  app.post<{ Params: { scope: string; scopeId: string } }>(
    '/api/governance/budgets/:scope/:scopeId/resume',
    { config: { badJsonMessage: M.invalidResume } },
    async (req) => {
      const scope = BudgetScope.safeParse(req.params.scope);
      if (!scope.success) throw badRequest(M.unknownScope(req.params.scope));
      const body = BudgetResumeBody.safeParse(req.body ?? {});
      if (!body.success) throw badRequest(M.invalidResume, { details: z.flattenError(body.error) });
      return budgets.store.resume(scope.data, req.params.scopeId, body.data);
    },
  );
}
