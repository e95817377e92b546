// Issue 30 #5: a gateway already set up or running on this machine. GET
// existing-gateway says what svc finds in its gateway state directory and on
// the gateway's port (read only; presence flags, never the token); POST
// connect-existing-gateway points svc's settings at it and reconnects the
// gateway link (shared/gateway/existing-gateway-connect.ts). Both take an
// optional `port` (a gateway started with --port) instead of gateway.port.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { connectExistingGateway } from '../../../shared/gateway/existing-gateway-connect.ts';
import { detectExistingGateway, type DetectOptions } from '../../../shared/gateway/existing-gateway.ts';
import type { GatewaySettingsTarget } from '../../../shared/gateway/settings-sync.ts';
import type { AppDeps } from '../../deps.ts';
import { objectBody, parseOr400 } from '../validate.ts';

const M = {
  body: 'body must be a JSON object (or empty)',
  port: 'port must be an integer from 1 to 65535',
} as const;
const Port = z.number().int().min(1).max(65535).optional();
const PortQuery = z.object({ port: z.coerce.number().pipe(z.number().int().min(1).max(65535)).optional() });
const ConnectBody = z.object({ port: Port });

export function existingGatewayRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config, paths, gatewayHost: host, redactor } = deps;
  const detectOptions = (port: number | undefined): DetectOptions => ({
    stateDir: config.gatewayStateDir,
    settingsFile: paths.settingsFile,
    identity: deps.deviceIdentity,
    version: config.version,
    linkStatus: () => deps.gatewayLink.status(),
    // The CLI probe is cached per binary and bounded at 6 s in the worker.
    cli: async () => {
      const r = await host.request('detectCli', {}, { timeoutMs: 8000 });
      return r.ok ? { installed: r.result.installed, version: r.result.version } : null;
    },
    port,
  });
  const target: GatewaySettingsTarget = { save: (patch) => deps.settings.save(patch), reconnect: () => deps.gatewayLink.reconfigure() };

  app.get('/api/system/existing-gateway', async (req) => {
    const { port } = parseOr400(PortQuery, req.query ?? {}, M.port);
    return redactor.deep((await detectExistingGateway(detectOptions(port))).view);
  });

  app.post('/api/system/connect-existing-gateway', { config: { badJsonMessage: M.body } }, async (req) => {
    const { port } = parseOr400(ConnectBody, req.body == null ? {} : objectBody(req.body, M.body), M.port);
    return redactor.deep(await connectExistingGateway({ ...detectOptions(port), target }));
  });
}
