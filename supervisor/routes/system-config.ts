// Spec "System (host and gateway)": POST configure-gateway, POST
// auto-configure-gateway, GET and PATCH gateway-config. The file logic is in
// shared/gateway/; here: input checks, the settings save, the reply. The
// gateway token goes to settings and the gateway's .env, never into a reply
// or a log line; provider keys only ever show as presence flags; GET shows an
// allowlisted projection of openclaw.json (shared/gateway/config-view.ts).
import { homedir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { tcpReachable } from '../../shared/health/probes.ts';
import { readGatewayConfig } from '../../shared/settings/gateway-files.ts';
import { autoConfigureGateway, configureGateway, presenceFlags, type GatewayConnectionSettings } from '../../shared/gateway/auto-configure.ts';
import { applyConfigPatch, configuredPort, editGatewayConfig, gatewayUrlFor, getPath, DEFAULT_GATEWAY_PORT } from '../../shared/gateway/config-file.ts';
import { gatewayConfigView } from '../../shared/gateway/config-view.ts';
import { updateGatewayEnv } from '../../shared/gateway/env-file.ts';
import { isPrototypeKey } from '../../shared/object-keys.ts';
import { apiKeysEnvVar, findProvider, KEYLESS_PROVIDER } from '../../shared/gateway/providers.ts';
import type { AppDeps } from '../deps.ts';
import { badRequest, HttpError } from '../http-error.ts';
import { objectBody } from '../validate.ts';

const M = {
  jsonRequired: 'JSON body required',
  providerRequired: 'provider is required',
  apiKeyRequired: `apiKey is required for non-${KEYLESS_PROVIDER} providers`,
  // Beyond the spec's list (issue 15 #5): these ids would name JavaScript's object machinery.
  reservedAgentId: "agentModel.agentId must not be '__proto__', 'constructor' or 'prototype'",
} as const;

/** How long PATCH waits to learn whether the gateway port answers (the hot-reload hint). */
const REACHABLE_TIMEOUT_MS = 500;

const nonBlank = z.string().trim().min(1);
const Port = z.number().int().min(1).max(65535);
// A wrong-typed optional field is ignored rather than rejected: the spec lists no 400 for it.
const ignoredIfInvalid = <S extends z.ZodType>(schema: S) => schema.optional().catch(undefined);

const ConfigureBody = z.object({
  provider: z.unknown().optional(),
  apiKey: ignoredIfInvalid(nonBlank),
  model: ignoredIfInvalid(nonBlank),
  gatewayPort: ignoredIfInvalid(Port),
});

const PatchBody = z.object({
  model: ignoredIfInvalid(nonBlank),
  fallbacks: ignoredIfInvalid(z.array(z.unknown()).transform((list) => list.filter((v): v is string => typeof v === 'string'))),
  gatewayPort: ignoredIfInvalid(Port),
  apiKeys: ignoredIfInvalid(z.array(z.object({ provider: nonBlank, key: z.string().trim() }).nullable().catch(null))),
  agentModel: ignoredIfInvalid(z.object({ agentId: nonBlank, model: z.string().trim().nullable() })),
  exec: ignoredIfInvalid(z.object({ ask: ignoredIfInvalid(nonBlank), security: ignoredIfInvalid(nonBlank) })),
  agentToAgent: ignoredIfInvalid(z.object({ enabled: z.boolean() })),
});

export function systemConfigRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config, logger, settings, vault, redactor } = deps;
  const stateDir = config.gatewayStateDir;

  /** Saves where and how svc reaches the gateway, then reconnects. */
  const connectTo = (conn: GatewayConnectionSettings) => {
    settings.save({ gatewayUrl: conn.gatewayUrl, gatewayToken: conn.gatewayToken });
    deps.onGatewaySettingsChanged();
  };

  /** A 500 whose message is fixed; the cause goes to the log (which masks secrets). */
  const failed = (err: unknown, message: string): HttpError => {
    if (err instanceof HttpError) return err;
    logger.error({ err }, message);
    return new HttpError(500, message);
  };

  app.post('/api/system/configure-gateway', { config: { badJsonMessage: M.jsonRequired } }, async (req) => {
    const body = ConfigureBody.parse(objectBody(req.body, M.jsonRequired));
    const provider = nonBlank.safeParse(body.provider);
    if (!provider.success) throw badRequest(M.providerRequired);
    const keyless = findProvider(provider.data)?.keyless === true;
    if (!keyless && body.apiKey === undefined) throw badRequest(M.apiKeyRequired);
    const port = body.gatewayPort ?? DEFAULT_GATEWAY_PORT;
    try {
      const conn = configureGateway(stateDir, { provider: provider.data, apiKey: body.apiKey ?? null, model: body.model ?? null, gatewayPort: port }, logger);
      connectTo(conn);
      logger.info({ provider: provider.data, port }, 'gateway configured');
      return { ok: true, gatewayUrl: conn.gatewayUrl };
    } catch (err) {
      throw failed(err, 'Failed to configure gateway');
    }
  });

  app.post('/api/system/auto-configure-gateway', { config: { badJsonMessage: M.jsonRequired } }, async () => {
    try {
      const result = autoConfigureGateway({ stateDir, vault, userHome: homedir(), log: logger });
      if (!result.ok) return result;
      connectTo(result.settings);
      logger.info({ provider: result.provider }, 'gateway auto-configured');
      return { ok: true, gatewayUrl: result.settings.gatewayUrl, provider: result.provider };
    } catch (err) {
      throw failed(err, 'Failed to auto-configure gateway');
    }
  });

  app.get('/api/system/gateway-config', async () => {
    try {
      const read = readGatewayConfig(stateDir);
      // A scalar or null: an object there is not a policy and could hold anything.
      const exec = (key: string) => {
        const v = getPath(read.config, ['tools', 'exec', key]);
        return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
      };
      return {
        // Only allowlisted fields; the redactor still masks a credential-shaped value inside one.
        config: read.config === null ? null : redactor.deep(gatewayConfigView(read.config)),
        env: presenceFlags(stateDir, read.config, logger),
        version: deps.gateway.status().serverVersion ?? null,
        execAsk: redactor.deep(exec('ask')),
        execSecurity: redactor.deep(exec('security')),
      };
    } catch (err) {
      throw failed(err, 'Failed to read gateway config');
    }
  });

  app.patch('/api/system/gateway-config', { config: { badJsonMessage: M.jsonRequired } }, async (req) => {
    const { apiKeys, ...patch } = PatchBody.parse(objectBody(req.body, M.jsonRequired));
    // Refused before anything is written: the whole PATCH fails, .env included.
    if (patch.agentModel !== undefined && isPrototypeKey(patch.agentModel.agentId)) throw badRequest(M.reservedAgentId);
    let port: number;
    try {
      const keys = (apiKeys ?? []).filter((k) => k !== null);
      // An empty key removes the variable: the way to disconnect a provider.
      // fromEntries defines own keys, and every name is a `<PROVIDER>_API_KEY`: no input reaches a prototype.
      if (keys.length > 0) updateGatewayEnv(stateDir, Object.fromEntries(keys.map((k) => [apiKeysEnvVar(k.provider), k.key === '' ? null : k.key])));
      const touchesConfig = Object.values(patch).some((v) => v !== undefined);
      port = touchesConfig
        ? editGatewayConfig(stateDir, logger, (cfg, log) => {
            applyConfigPatch(cfg, patch, log);
            return configuredPort(cfg);
          })
        : configuredPort(readGatewayConfig(stateDir).config);
      if (patch.gatewayPort !== undefined) {
        settings.save({ gatewayUrl: gatewayUrlFor(patch.gatewayPort) });
        deps.onGatewaySettingsChanged();
      }
    } catch (err) {
      throw failed(err, 'Failed to update gateway config');
    }
    // The gateway hot-reloads its config file; the hint only says whether one is listening.
    const reachable = await tcpReachable('127.0.0.1', port, REACHABLE_TIMEOUT_MS);
    return reachable.ok ? { ok: true, hotReloadHint: true } : { ok: true };
  });
}
