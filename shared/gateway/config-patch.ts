// The gateway-config writes of spec "System (host and gateway)" as whole
// sequences: configure-gateway and auto-configure-gateway (write the
// gateway's files, then point svc's settings at it and reconnect) and PATCH
// gateway-config (provider keys to .env, fields to openclaw.json, a new port
// to svc's settings, then reconnect). The route parses, calls one of these
// and replies; what they write and in which order is decided here.
import { readGatewayConfig } from '../settings/gateway-files.ts';
import { isPrototypeKey } from '../object-keys.ts';
import { invalid } from '../errors.ts';
import {
  autoConfigureGateway, configureGateway,
  type AutoConfigureInput, type AutoConfigureResult, type ConfigureInput, type GatewayConnectionSettings,
} from './auto-configure.ts';
import { applyConfigPatch, configuredPort, editGatewayConfig, gatewayUrlFor, type ConfigLog, type ConfigPatch } from './config-file.ts';
import { updateGatewayEnv } from './env-file.ts';
import { apiKeysEnvVar } from './providers.ts';
import { connectSettingsTo, type GatewaySettingsTarget } from './settings-sync.ts';

/** Beyond the spec's list (issue 15 #5): these ids would name JavaScript's object machinery. */
export const RESERVED_AGENT_ID = "agentModel.agentId must not be '__proto__', 'constructor' or 'prototype'";

/** configure-gateway: writes .env and openclaw.json (a fresh token), then points svc at the gateway. */
export function configureAndConnect(stateDir: string, input: ConfigureInput, target: GatewaySettingsTarget, log: ConfigLog): GatewayConnectionSettings {
  const conn = configureGateway(stateDir, input, log);
  connectSettingsTo(conn, target);
  log.info({ provider: input.provider, port: input.gatewayPort }, 'gateway configured');
  return conn;
}

/** auto-configure-gateway: the spec's four rungs; when one wrote a config, svc is pointed at it. */
export function autoConfigureAndConnect(input: AutoConfigureInput, target: GatewaySettingsTarget): AutoConfigureResult {
  const result = autoConfigureGateway(input);
  if (!result.ok) return result;
  connectSettingsTo(result.settings, target);
  input.log.info({ provider: result.provider }, 'gateway auto-configured');
  return result;
}

export interface GatewayConfigPatchInput {
  stateDir: string;
  /** Provider keys for the gateway's .env; an empty key removes the variable (how a provider is disconnected). */
  apiKeys: ReadonlyArray<{ provider: string; key: string }>;
  /** The openclaw.json fields, already validated. */
  patch: ConfigPatch;
  target: GatewaySettingsTarget;
  log: ConfigLog;
}

/**
 * PATCH gateway-config. A reserved agent id is refused (DomainError
 * 'invalid') before anything is written, .env included. Then: keys to .env,
 * fields to openclaw.json (one locked read-modify-write, skipped when no
 * field is set), and when the port changed, svc's settings URL follows and
 * its connection reconnects. Returns the port the gateway is configured on,
 * for the caller's hot-reload hint.
 */
export function patchGatewayConfig(input: GatewayConfigPatchInput): number {
  const { stateDir, apiKeys, patch, log } = input;
  if (patch.agentModel !== undefined && isPrototypeKey(patch.agentModel.agentId)) throw invalid(RESERVED_AGENT_ID);
  // fromEntries defines own keys, and every name is a `<PROVIDER>_API_KEY`: no input reaches a prototype.
  if (apiKeys.length > 0) updateGatewayEnv(stateDir, Object.fromEntries(apiKeys.map((k) => [apiKeysEnvVar(k.provider), k.key === '' ? null : k.key])));
  const touchesConfig = Object.values(patch).some((v) => v !== undefined);
  const port = touchesConfig
    ? editGatewayConfig(stateDir, log, (cfg, editLog) => {
        applyConfigPatch(cfg, patch, editLog);
        return configuredPort(cfg);
      })
    : configuredPort(readGatewayConfig(stateDir).config);
  if (patch.gatewayPort !== undefined) connectSettingsTo({ gatewayUrl: gatewayUrlFor(patch.gatewayPort) }, input.target);
  return port;
}
