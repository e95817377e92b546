// GET /api/health and POST /api/health/recheck. The report is redacted; the
// 500 form is `{ ok: false, error }` (spec "Errors").
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BootReport } from '../../shared/health/types.ts';
import type { AppDeps } from '../deps.ts';

export function healthRoutes(app: FastifyInstance, { health, redactor, logger }: AppDeps): void {
  const answer = async (reply: FastifyReply, produce: () => Promise<BootReport>) => {
    try {
      const report = await produce();
      return reply.send(redactor.deep({ ok: report.fatal.length === 0, ...report }));
    } catch (err) {
      logger.error({ err }, 'health report failed');
      return reply.code(500).send({ ok: false, error: redactor.text((err as Error).message) });
    }
  };
  app.get('/api/health', (_req, reply) => answer(reply, () => health.get()));
  app.post('/api/health/recheck', (_req, reply) => answer(reply, () => health.recheck()));
}
