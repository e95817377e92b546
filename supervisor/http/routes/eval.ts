// Spec "Observability": POST /api/eval/smoke. The deterministic smoke suite:
// every catalogue task run `trials` times in the piscina pool (each trial on
// its own temporary database, at most the pool's size at once), scored. Any
// failure (a dead pool thread, a timeout, a malformed reply, a trial's
// database) is the one error handler's 500, redacted (plugins/errors.ts).
// A client that goes away stops the run: the trials in flight are aborted
// and no other starts (client-gone.ts).
import type { FastifyInstance } from 'fastify';
import { parseEvalOptions, runSuite } from '../../../shared/eval/index.ts';
import type { AppDeps } from '../../deps.ts';
import { clientGoneSignal } from '../client-gone.ts';

export function evalRoutes(app: FastifyInstance, { pool }: AppDeps): void {
  app.post('/api/eval/smoke', async (req, reply) => {
    // Wrong-typed fields and non-object bodies fall back to the defaults (the spec's rule, in parseEvalOptions).
    const { trials, k } = parseEvalOptions(req.body);
    const signal = clientGoneSignal(reply);
    return runSuite({ trials, k, concurrency: pool.size, signal, runTrial: (task) => pool.evalTrial(task.id, { signal }) });
  });
}
