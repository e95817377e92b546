// What the reconciler reads of the gateway before it plans. Connected, svc
// asks the running gateway (`config.get`) where its config is; that path is
// how svc finds the files of a gateway it did not start (a person's own,
// connected in Settings): the folder of that path holds the `.env`, when the
// gateway runs on this machine. The config itself is then read from that
// file, because `config.get` masks secrets in what it returns (literal keys
// and MCP headers come back as `__OPENCLAW_REDACTED__`), and a plan over a
// masked value would write the mask back. A gateway whose files svc cannot
// reach is planned from `config.get`'s copy, where only the parts that need
// no secret (the roster lists) apply. Not connected: the file in svc's
// configured state folder.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isJsonObject, type JsonObject } from '../gateway/config-file.ts';
import type { GatewayReach } from '../gateway/config-rpc.ts';
import { gatewayAgentIds } from '../model-routing/sync.ts';
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
  if (configPath === gatewayPaths(deps.stateDir).configFile && existsSync(configPath)) return deps.stateDir;
  // readGatewayConfig reads `<folder>/openclaw.json`: a config under another name is read through config.get only.
  if (configPath === null || !deps.local() || !existsSync(configPath) || basename(configPath) !== 'openclaw.json') return null;
  return dirname(configPath);
}

/** The config file as written, for a gateway whose files are on this machine. */
function readLocal(file: string): { config: JsonObject; raw: string } {
  const read = readGatewayConfig(dirname(file));
  if (read.corrupt || !read.config) throw new Error(READ_ERRORS.corrupt);
  return { config: read.config, raw: readFileSync(file, 'utf8') };
}

export async function readGateway(deps: ReadDeps): Promise<GatewayRead> {
  if (deps.gateway.connected()) {
    const got = ConfigGet(await deps.gateway.call('config.get', {}));
    const stateDir = localStateDir(deps, got.path);
    const local = stateDir === null ? null : readLocal(got.path as string);
    return {
      via: 'gateway',
      configPath: got.path ?? gatewayPaths(deps.stateDir).configFile,
      config: local?.config ?? got.parsed,
      raw: local?.raw ?? null,
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
