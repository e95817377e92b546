// Spec "Smaller resources" → "Graph layout". The read never fails: a miss,
// an unreadable row or a database error all read as `{ positions: {} }`
// (the graph then lays itself out); the write is an upsert.
import type { FastifyInstance } from 'fastify';
import { createLayoutStore, GatewayUrlField, LAYOUT_MESSAGES as M, LayoutPostBody, layoutKey } from '../../../shared/layouts/index.ts';
import type { AppDeps } from '../../deps.ts';
import { objectBody, parseOr400 } from '../validate.ts';

export function graphLayoutRoutes(app: FastifyInstance, deps: AppDeps): void {
  const store = createLayoutStore(deps.db, deps.logger);

  app.get('/api/graph-layout', async (req) => {
    const key = layoutKey(req.query);
    if (!key) return { positions: {} };
    try {
      return store.get(key.gatewayUrl, key.name) ?? { positions: {} };
    } catch (err) {
      deps.logger.error({ err, name: key.name }, 'graph layout read failed; served as empty (the spec: this read is always 200)');
      return { positions: {} };
    }
  });

  app.post('/api/graph-layout', { config: { badJsonMessage: M.bodyRequired } }, async (req) => {
    const body = objectBody(req.body, M.bodyRequired);
    parseOr400(GatewayUrlField, body, M.gatewayUrlRequired);
    return { ok: true, layout: store.put(parseOr400(LayoutPostBody, body)) };
  });
}
