// WebSocket upgrades. The only path accepted is /api/gateway/ws; every other
// upgrade has its socket destroyed. With the access gate on, that path too
// is refused without the cookie; the DNS-rebinding guard applies as well.
// The gateway proxy registers its handler here (gateway issue); until one is
// registered the path is refused like any other.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../shared/log.ts';
import type { Gate } from './plugins/access-gate.ts';
import { hostGuardVerdict, type HostGuardOptions } from './plugins/host-guard.ts';

export const GATEWAY_WS_PATH = '/api/gateway/ws';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export class UpgradeRegistry {
  private handler: UpgradeHandler | null = null;

  setGatewayHandler(h: UpgradeHandler | null): void {
    this.handler = h;
  }

  gatewayHandler(): UpgradeHandler | null {
    return this.handler;
  }
}

export function attachUpgradeHandling(
  server: Server,
  deps: { gate: Gate; hostGuard: HostGuardOptions; registry: UpgradeRegistry; logger: Logger },
): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    const refuse = (why: string) => {
      deps.logger.debug({ path, why }, 'upgrade refused');
      socket.destroy();
    };
    const hostProblem = hostGuardVerdict(req.headers, deps.hostGuard);
    if (hostProblem) return refuse(hostProblem);
    if (path !== GATEWAY_WS_PATH) return refuse('not an upgrade path');
    if (deps.gate.enabled && !deps.gate.matches(deps.gate.cookieFrom(req.headers))) return refuse('no access cookie');
    const handler = deps.registry.gatewayHandler();
    if (!handler) return refuse('gateway proxy not available');
    handler(req, socket, head);
  });
}
