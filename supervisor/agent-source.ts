// svc's own server-side gateway connection (the "agent source"): connects
// with the resolved settings (URL and token) and svc's device identity, keeps
// the session up with backoff, and reconnects at once when the settings
// change. It lives in the supervisor thread: its traffic is a handful of
// frames per chat turn, and the front door reads its state synchronously for
// /api/health.
import { createGatewayConnection, type GatewayConnection } from '../shared/gateway/connection.ts';
import type { DeviceIdentity } from '../shared/gateway/device-identity.ts';
import type { Logger } from '../shared/log.ts';
import type { GatewayBridge } from './deps.ts';
import type { CachedSettingsService } from './settings-service.ts';

export interface AgentSource extends GatewayBridge {
  connection: GatewayConnection;
  start(): void;
  stop(): Promise<void>;
}

export function createAgentSource(opts: {
  settings: CachedSettingsService;
  identity: () => DeviceIdentity;
  version: string;
  logger: Logger;
}): AgentSource {
  const connection = createGatewayConnection({
    logger: opts.logger.child({ component: 'agent-source' }),
    target: () => {
      const r = opts.settings.resolved();
      if (!r.gatewayUrl) return null;
      return { url: r.gatewayUrl, token: r.token, identity: opts.identity(), version: opts.version };
    },
  });
  return {
    connection,
    start: () => connection.start(),
    stop: () => connection.stop(),
    call: (method, params, callOpts) => connection.request(method, params, callOpts),
    status: () => connection.status(),
    reconfigure: () => connection.reconfigure(),
  };
}
