// GET /api/health and POST /api/health/recheck. The report is redacted; a
// failure to produce one is the one error handler's 500 in this group's
// envelope, `{ ok: false, error }` (spec "Errors").
import type { FastifyInstance } from 'fastify';
import type { BootReport } from '../../../shared/health/types.ts';
import type { AppDeps } from '../../deps.ts';
import type { ErrorReply } from '../plugins/errors.ts';

const HEALTH_ROUTE = { config: { errorReply: { fields: { ok: false } } satisfies ErrorReply } };

export function healthRoutes(app: FastifyInstance, { health, redactor }: AppDeps): void {
  const answer = (report: BootReport) => redactor.deep({ ok: report.fatal.length === 0, ...report });
  app.get('/api/health', HEALTH_ROUTE, async () => answer(await health.get()));
  app.post('/api/health/recheck', HEALTH_ROUTE, async () => answer(await health.recheck()));
}
