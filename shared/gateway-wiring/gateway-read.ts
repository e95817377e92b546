// What the reconciler reads of the gateway before it plans: the config as
// the running gateway holds it (its own `config.get`: the file as written,
// its hash, and its path) when svc is connected, else the file in svc's
// configured state folder. The config's path is also how svc finds the
// `.env` of a gateway it did not start (a person's own, connected in
// Settings): the folder of that path, when the gateway runs on this machine.
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isJsonObject, type JsonObject } from '../gateway/config-file.ts';
import { gatewayAgentIds, type GatewayReach } from '../model-routing/sync.ts';
import { gatewayPaths } from '../paths.ts';
import { readGatewayConfig, readGatewayEnv } from '../settings/gateway-files.ts';

export interface GatewayRead {
  /** Where the config was read: the running gateway, or the file. */
  via: 'gateway' | 'file';
  configPath: string;
  config: JsonObject;
  /** The file's text as read (for the copy svc keeps before its first change). */
  raw: string | null;
  /** The gateway's state folder when svc can reach its files (the `.env` is there); null otherwise. */
  stateDir: string | null;
  /** The `.env` as it is (null when svc cannot reach it). */
  env: Readonly<Record<string, string>> | null;
  /** Every agent the gateway has. */
  agentIds: string[];
}

export const READ_ERRORS = {
  noGateway: 'no gateway to wire: svc is not connected to one and there is no openclaw.json in its state folder',
  corrupt: 'openclaw.json is not valid JSON: svc did not change it',
} as const;

export interface ReadDeps {
  gateway: GatewayReach;
  /** svc's configured gateway state folder (config.gatewayStateDir). */
  stateDir: string;
  /** Whether the gateway svc is connected to runs on this machine (a loopback URL). */
  local: () => boolean;
}

const ConfigGet = (payload: unknown): { path: string | null; parsed: JsonObject; raw: string | null } => {
  const p = isJsonObject(payload) ? payload : {};
  return {
    path: typeof p.path === 'string' && p.path !== '' ? p.path : null,
    parsed: isJsonObject(p.parsed) ? p.parsed : {},
    raw: typeof p.raw === 'string' ? p.raw : null,
  };
};

/** The folder holding the config svc reads, when its files are on this machine. */
function localStateDir(deps: ReadDeps, configPath: string | null): string | null {
  if (configPath === gatewayPaths(deps.stateDir).configFile) return deps.stateDir;
  if (configPath === null || !deps.local() || !existsSync(configPath)) return null;
  return dirname(configPath);
}

export async function readGateway(deps: ReadDeps): Promise<GatewayRead> {
  if (deps.gateway.connected()) {
    const got = ConfigGet(await deps.gateway.call('config.get', {}));
    const stateDir = localStateDir(deps, got.path);
    return {
      via: 'gateway',
      configPath: got.path ?? gatewayPaths(deps.stateDir).configFile,
      config: got.parsed,
      raw: got.raw,
      stateDir,
      env: stateDir === null ? null : readGatewayEnv(stateDir),
      agentIds: await gatewayAgentIds({ gateway: deps.gateway }, got.parsed),
    };
  }
  const file = gatewayPaths(deps.stateDir).configFile;
  const read = readGatewayConfig(deps.stateDir);
  if (read.corrupt) throw new Error(READ_ERRORS.corrupt);
  if (!read.config) throw new Error(READ_ERRORS.noGateway);
  return {
    via: 'file',
    configPath: file,
    config: read.config,
    raw: readFileSync(file, 'utf8'),
    stateDir: deps.stateDir,
    env: readGatewayEnv(deps.stateDir),
    agentIds: await gatewayAgentIds({ gateway: deps.gateway }, read.config),
  };
}
