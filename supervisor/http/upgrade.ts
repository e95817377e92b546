// WebSocket upgrades. The only path accepted is /api/gateway/ws; every other
// upgrade has its socket destroyed. The target is read as the HTTP side reads
// it (request-path.ts: absolute-form, %-escapes, `\`, `//`, dot segments,
// case): with the access gate on, any target whose normalised path is /api
// or below is refused without the session cookie (spec "Authentication" 4),
// whatever its spelling; the DNS-rebinding guard applies as well. The
// gateway proxy registers its handler here (gateway issue); until one is
// registered the path is refused like any other.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../shared/log.ts';
import type { Gate } from './plugins/access-gate.ts';
import { hostGuardVerdict, type HostGuardOptions } from './plugins/host-header-guard.ts';
import { isApiPath, parseTarget } from './plugins/request-path.ts';

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
    const target = parseTarget(req.url ?? '');
    const path = target?.path ?? null;
    const refuse = (why: string) => {
      deps.logger.debug({ path, why }, 'upgrade refused');
      socket.destroy();
    };
    const hostProblem = hostGuardVerdict(req.headers, deps.hostGuard);
    if (hostProblem) return refuse(hostProblem);
    if (deps.gate.enabled && (path === null || isApiPath(path)) && !deps.gate.hasSession(req.headers)) return refuse('no access cookie');
    if (path !== GATEWAY_WS_PATH) return refuse('not an upgrade path');
    const handler = deps.registry.gatewayHandler();
    if (!handler) return refuse('gateway proxy not available');
    handler(req, socket, head);
  });
}
