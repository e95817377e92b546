// The gateway link: svc's own server-side connection to the gateway (the
// browser's sockets go through the proxy instead,
// supervisor/http/gateway-proxy.ts).
// It connects with the resolved settings (URL and token) and svc's device
// identity, keeps the session up with backoff (shared/gateway/connection.ts)
// and reconnects at once when the settings change. A URL whose origin the
// stored token was not given for is not contacted at all (no token, no device
// proof): the link stays idle with `gateway token needed for <origin>` as its
// last error until a token is given for it (shared/settings/settings-file.ts). Routes send through it
// (models, chat history resets, exec policies) and /api/health reads its
// state. It lives in the supervisor thread: its traffic is a handful of
// frames per chat turn, and the front door reads its state synchronously.
import { createGatewayConnection, type ConnectionStatus, type GatewayConnection } from '../../shared/gateway/connection.ts';
import type { DeviceIdentity } from '../../shared/gateway/device-identity.ts';
import type { Logger } from '../../shared/log.ts';
import { tokenNeededMessage } from '../../shared/settings/index.ts';
import type { CachedSettingsService } from './settings-service.ts';

/** The gateway link as routes see it (AppDeps.gatewayLink). */
export interface GatewayLink {
  /** A request to the gateway; rejects with a GatewayError (UNAVAILABLE when not connected within waitMs). */
  call(method: string, params?: unknown, opts?: { timeoutMs?: number; waitMs?: number }): Promise<unknown>;
  status(): ConnectionStatus;
  /** Settings changed: drop the session and connect again. */
  reconfigure(): void;
  /**
   * Calls `handler` on every reconfigure(), and when a connect attempt finds
   * the resolved URL or token changed (settings.json or a token template's
   * variable edited by hand): the team-chat worker's own connection follows
   * the settings too. Returns the unsubscribe.
   */
  onReconfigure(handler: () => void): () => void;
}

/** What the runtime that owns the link holds besides: its lifecycle and the connection's settled state. */
export interface OwnedGatewayLink extends GatewayLink {
  connection: GatewayConnection;
  start(): void;
  stop(): Promise<void>;
}

/** The link's lastError code while the stored token is withheld from the URL's origin. */
export const TOKEN_NEEDED = 'TOKEN_NEEDED';

export function createGatewayLink(opts: {
  settings: CachedSettingsService;
  identity: () => DeviceIdentity;
  version: string;
  logger: Logger;
}): OwnedGatewayLink {
  const reconfigureHandlers = new Set<() => void>();
  const notify = () => {
    for (const handler of reconfigureHandlers) {
      try {
        handler();
      } catch (err) {
        // One follower failing must not keep the others on the old settings; it is logged.
        opts.logger.error({ err }, 'a gateway reconfigure handler failed');
      }
    }
  };
  /** What the last connect attempt resolved (URL and token), to tell followers when it changes. */
  let lastTarget: string | null = null;
  const connection = createGatewayConnection({
    logger: opts.logger.child({ component: 'gateway-link' }),
    target: () => {
      const r = opts.settings.resolved();
      const seen = `${r.gatewayUrl ?? ''}\u0000${r.token}`;
      if (lastTarget !== null && seen !== lastTarget) queueMicrotask(notify);
      lastTarget = seen;
      if (!r.gatewayUrl) return null;
      if (r.tokenNeededFor !== undefined) {
        return { refused: { url: r.gatewayUrl, code: TOKEN_NEEDED, message: tokenNeededMessage(r.tokenNeededFor) } };
      }
      return { url: r.gatewayUrl, token: r.token, identity: opts.identity(), version: opts.version };
    },
  });
  return {
    connection,
    start: () => connection.start(),
    stop: () => connection.stop(),
    call: (method, params, callOpts) => connection.request(method, params, callOpts),
    status: () => connection.status(),
    reconfigure: () => {
      connection.reconfigure();
      notify();
    },
    onReconfigure: (handler) => {
      reconfigureHandlers.add(handler);
      return () => {
        reconfigureHandlers.delete(handler);
      };
    },
  };
}
