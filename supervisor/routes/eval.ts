// Spec "Observability": POST /api/eval/smoke. The deterministic smoke suite:
// every catalogue task run `trials` times in the piscina pool (each trial on
// its own temporary database, at most the pool's size at once), scored.
import type { FastifyInstance } from 'fastify';
import { parseEvalOptions, runSuite } from '../../shared/eval/index.ts';
import type { AppDeps } from '../deps.ts';

export function evalRoutes(app: FastifyInstance, { pool, redactor, logger }: AppDeps): void {
  app.post('/api/eval/smoke', async (req, reply) => {
    // Wrong-typed fields and non-object bodies fall back to the defaults (the spec's rule, in parseEvalOptions).
    const { trials, k } = parseEvalOptions(req.body);
    try {
      return await runSuite({ trials, k, concurrency: pool.size, runTrial: (task) => pool.evalTrial(task.id) });
    } catch (err) {
      // The spec answers any failure here (a dead pool thread, a timeout, a malformed reply) with 500, redacted.
      logger.error({ err }, 'eval smoke failed');
      return reply.code(500).send({ error: redactor.text(err instanceof Error ? err.message : String(err)) });
    }
  });
}
