// GET /api/model-calls (issue 22): the rows of svc's model endpoint, one per
// model call, newest first; filters by run, session, agent, team or trace
// (a run's trace lists its calls with this).
import type { FastifyInstance } from 'fastify';
import { ModelCallListQuerySchema } from '../../../shared/model-calls/index.ts';
import type { AppDeps } from '../../deps.ts';
import { parseOr400 } from '../validate.ts';

export function modelCallsRoutes(app: FastifyInstance, { modelCalls }: AppDeps): void {
  app.get('/api/model-calls', async (req) => ({ calls: modelCalls.list(parseOr400(ModelCallListQuerySchema, req.query ?? {})) }));
}
