// GET /api/system/self-version: the running build's version. With `local=1`
// (what the launcher asks) no upstream probe is made. The upstream release
// probe and self-update belong to the gateway/host issue; until then
// `latest` is null and `checked` says no probe was made.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export function systemRoutes(app: FastifyInstance, { config }: AppDeps): void {
  app.get('/api/system/self-version', async () => ({
    current: config.version,
    latest: null,
    updateAvailable: false,
    checked: false,
  }));
}
