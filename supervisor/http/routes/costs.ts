// Spec "Smaller resources" → "Cost records". Query and body field names the
// spec leaves open are svc's (README "Cost records").
import type { FastifyInstance } from 'fastify';
import { COST_MESSAGES as M, CostListQuerySchema, CostRecordCreateSchema, createCostRecords } from '../../../shared/costs/index.ts';
import type { AppDeps } from '../../deps.ts';
import { objectBody, parseOr400 } from '../validate.ts';

export function costRecordsRoutes(app: FastifyInstance, { db, tx, domain }: AppDeps): void {
  const costs = createCostRecords({ db, tx, agents: domain.agents });

  // Before /api/cost-records (the spec's registration order).
  app.get('/api/cost-records/summary', async () => costs.summary());

  // The query schema never fails: wrong types fall back to the defaults.
  app.get('/api/cost-records', async (req) => costs.list(parseOr400(CostListQuerySchema, req.query ?? {})));

  app.post('/api/cost-records', { config: { badJsonMessage: M.body } }, async (req) =>
    costs.record(parseOr400(CostRecordCreateSchema, objectBody(req.body, M.body))),
  );
}
