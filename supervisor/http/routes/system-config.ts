// Spec "System (host and gateway)": POST configure-gateway, POST
// auto-configure-gateway, GET and PATCH gateway-config. The file writes, the
// settings save and the reconnect are in shared/gateway/ (config-patch.ts),
// the bodies and answers are schemas in shared/gateway/config-api.ts; here:
// input checks, one call, the reply. The
// gateway token goes to settings and the gateway's .env, never into a reply
// or a log line; provider keys only ever show as presence flags; GET shows an
// allowlisted projection of openclaw.json (shared/gateway/config-view.ts).
import { homedir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../../shared/errors.ts';
import { tcpReachable } from '../../../shared/health/probes.ts';
import { readGatewayConfig } from '../../../shared/settings/gateway-files.ts';
import { autoConfigureReply, presenceFlags, type AutoConfigureResponse } from '../../../shared/gateway/auto-configure.ts';
import {
  ConfigureGatewayBody, GatewayConfigPatchBody, ProviderName,
  type ConfigureGatewayResult, type GatewayConfigPatchResult, type GatewayConfigResponse,
} from '../../../shared/gateway/config-api.ts';
import { getPath } from '../../../shared/gateway/config-file.ts';
import { autoConfigureAndConnect, configureAndConnect, patchGatewayConfig } from '../../../shared/gateway/config-patch.ts';
import { gatewayConfigView } from '../../../shared/gateway/config-view.ts';
import type { GatewaySettingsTarget } from '../../../shared/gateway/settings-sync.ts';
import { findProvider, KEYLESS_PROVIDER } from '../../../shared/gateway/providers.ts';
import { heldKeyFlags } from '../../../shared/model-routing/upstreams.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, internalError } from '../http-error.ts';
import { objectBody } from '../validate.ts';

const M = {
  jsonRequired: 'JSON body required',
  providerRequired: 'provider is required',
  apiKeyRequired: `apiKey is required for non-${KEYLESS_PROVIDER} providers`,
} as const;

/** How long PATCH waits to learn whether the gateway port answers (the hot-reload hint). */
const REACHABLE_TIMEOUT_MS = 500;

export function systemConfigRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config, logger, settings, vault, redactor } = deps;
  const stateDir = config.gatewayStateDir;
  /** Where a configured gateway's URL and token are saved, and svc's connection told. */
  const target: GatewaySettingsTarget = { save: (patch) => settings.save(patch), reconnect: () => deps.gatewayLink.reconfigure() };

  // Each 500 below has the spec's fixed message; the cause (a path, an errno)
  // is logged by the error handler, never sent.

  app.post('/api/system/configure-gateway', { config: { badJsonMessage: M.jsonRequired, gatewayChange: true } }, async (req): Promise<ConfigureGatewayResult> => {
    const body = ConfigureGatewayBody.parse(objectBody(req.body, M.jsonRequired));
    const provider = ProviderName.safeParse(body.provider);
    if (!provider.success) throw badRequest(M.providerRequired);
    const keyless = findProvider(provider.data)?.keyless === true;
    if (!keyless && body.apiKey === null) throw badRequest(M.apiKeyRequired);
    const input = { ...body, provider: provider.data };
    let gatewayUrl: string;
    try {
      gatewayUrl = configureAndConnect(stateDir, input, target, logger).gatewayUrl;
    } catch (err) {
      throw internalError('Failed to configure gateway', undefined, { cause: err });
    }
    return { ok: true, gatewayUrl };
  });

  app.post('/api/system/auto-configure-gateway', { config: { badJsonMessage: M.jsonRequired, gatewayChange: true } }, async (): Promise<AutoConfigureResponse> => {
    let result: ReturnType<typeof autoConfigureAndConnect>;
    try {
      result = autoConfigureAndConnect({ stateDir, vault, userHome: homedir(), log: logger }, target);
    } catch (err) {
      throw internalError('Failed to auto-configure gateway', undefined, { cause: err });
    }
    return autoConfigureReply(result);
  });

  app.get('/api/system/gateway-config', async (): Promise<GatewayConfigResponse> => {
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
        // With routing on, a key svc's vault holds counts: the gateway's calls reach the provider through svc.
        env: { ...presenceFlags(stateDir, read.config, logger), ...(deps.modelRouting.enabled() ? heldKeyFlags(vault) : {}) },
        version: deps.gatewayLink.status().serverVersion ?? null,
        execAsk: redactor.deep(exec('ask')),
        execSecurity: redactor.deep(exec('security')),
      };
    } catch (err) {
      throw internalError('Failed to read gateway config', undefined, { cause: err });
    }
  });

  app.patch('/api/system/gateway-config', { config: { badJsonMessage: M.jsonRequired, gatewayChange: true } }, async (req): Promise<GatewayConfigPatchResult> => {
    const { apiKeys, ...patch } = GatewayConfigPatchBody.parse(objectBody(req.body, M.jsonRequired));
    let port: number;
    try {
      port = patchGatewayConfig({ stateDir, apiKeys: (apiKeys ?? []).filter((k) => k !== null), patch, target, log: logger });
    } catch (err) {
      // A refusal (a reserved agent id, before anything was written) is the 400 it says; anything else a fixed 500.
      throw err instanceof DomainError ? err : internalError('Failed to update gateway config', undefined, { cause: err });
    }
    // The gateway hot-reloads its config file; the hint only says whether one is listening.
    const reachable = await tcpReachable('127.0.0.1', port, REACHABLE_TIMEOUT_MS);
    return reachable.ok ? { ok: true, hotReloadHint: true } : { ok: true };
  });
}
