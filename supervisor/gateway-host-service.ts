// The gateway-host worker as the routes see it: lifecycle (start, stop,
// restart, status), installs and the gateway CLI run in that worker behind
// its channel contract; the supervisor only turns its events into SSE frames.
// (Placeholder until the worker lands: no worker, every call unavailable.)
import type { Config } from '../shared/config.ts';
import type { Logger } from '../shared/log.ts';
import type { SvcPaths } from '../shared/paths.ts';
import type { Supervisor } from './supervision.ts';

export type GatewayHostHandle = null;

export interface GatewayHostContext {
  supervisor: Supervisor;
  config: Config;
  paths: SvcPaths;
  logger: Logger;
  startWorkers: boolean;
}

export function startGatewayHost(_ctx: GatewayHostContext): GatewayHostHandle {
  return null;
}
