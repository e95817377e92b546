// Where svc's files live under its state directory, and the gateway's files
// under the gateway's state directory. One function each, so a path is
// spelled once.
import { join } from 'node:path';
import type { Config } from './config.ts';

export interface SvcPaths {
  home: string;
  db: string;
  settingsFile: string;
  apiPortFile: string;
  deviceIdentityFile: string;
  gatewayPidFile: string;
  secretsDir: string;
  masterKeyFile: string;
  runtimeKeysFile: string;
  bootSentinelFile: string;
  logsDir: string;
  serverLogFile: string;
}

export function svcPaths(config: Pick<Config, 'svcHome' | 'dbPath'>): SvcPaths {
  const home = config.svcHome;
  const secretsDir = join(home, 'secrets');
  return {
    home,
    db: config.dbPath,
    settingsFile: join(home, 'settings.json'),
    apiPortFile: join(home, 'api-port.txt'),
    deviceIdentityFile: join(home, 'proxy-device-identity.json'),
    gatewayPidFile: join(home, 'gateway.pid'),
    secretsDir,
    masterKeyFile: join(secretsDir, 'master.key'),
    runtimeKeysFile: join(secretsDir, 'runtime-keys.json'),
    bootSentinelFile: join(secretsDir, 'boot-sentinel.json'),
    logsDir: join(home, 'logs'),
    serverLogFile: join(home, 'logs', 'server.log'),
  };
}

export interface GatewayPaths {
  stateDir: string;
  configFile: string;
  envFile: string;
  stateDb: string;
  agentsDir: string;
}

/** OpenClaw's real file names (ARCHITECTURE "The gateway"). */
export function gatewayPaths(stateDir: string): GatewayPaths {
  return {
    stateDir,
    configFile: join(stateDir, 'openclaw.json'),
    envFile: join(stateDir, '.env'),
    stateDb: join(stateDir, 'state', 'openclaw.sqlite'),
    agentsDir: join(stateDir, 'agents'),
  };
}
