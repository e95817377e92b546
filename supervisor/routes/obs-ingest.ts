// POST /api/obs/ingest: client-side tool_call / tool_result / error events.
import type { FastifyInstance } from 'fastify';
import { normalizeIngest } from '../../shared/events/ingest.ts';
import type { AppDeps } from '../deps.ts';

export function obsIngestRoutes(app: FastifyInstance, { ingest, redactor, logger }: AppDeps): void {
  app.post('/api/obs/ingest', async (req, reply) => {
    try {
      const rows = await ingest.append(normalizeIngest(req.body, Date.now()));
      return { ok: true, count: rows.length };
    } catch (err) {
      // The spec answers an unexpected throw here with 400 (redacted).
      logger.error({ err }, 'ingest failed');
      return reply.code(400).send({ error: redactor.text((err as Error).message) });
    }
  });
}
