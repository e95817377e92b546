// Spec "Smaller resources" → "Fleet summary". No parameters; read-only.
// Field names are svc's (README "Fleet summary"); a database failure is the
// error handler's redacted 500.
import type { FastifyInstance } from 'fastify';
import { createFleetSummary } from '../../../shared/fleet/index.ts';
import type { AppDeps } from '../../deps.ts';

export function fleetRoutes(app: FastifyInstance, { db, gatewayLink }: AppDeps): void {
  const summary = createFleetSummary({ db, gatewayStatus: () => gatewayLink.status() });
  app.get('/api/fleet/summary', async () => summary());
}
