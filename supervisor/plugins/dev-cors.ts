// Development mode only (NODE_ENV=development): cross-origin access from any
// origin with credentials, so the UI dev server can call the API directly.
import type { FastifyInstance } from 'fastify';

export function registerDevCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (!origin) return;
    void reply.header('Access-Control-Allow-Origin', origin);
    void reply.header('Access-Control-Allow-Credentials', 'true');
    void reply.header('Vary', 'Origin');
    if (req.method === 'OPTIONS') {
      void reply.header('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS');
      void reply.header('Access-Control-Allow-Headers', String(req.headers['access-control-request-headers'] ?? 'content-type'));
      void reply.code(204).send();
    }
  });
}
