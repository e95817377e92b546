// The same-origin WebSocket proxy at /api/gateway/ws (spec "Process model",
// "Authentication" 4 and 8). The browser talks the gateway's protocol through
// svc; svc opens the upstream connection, and when the browser sends its
// `connect`, svc replaces the auth and device fields with its own stored
// token and its own device proof (signed over the browser's client fields and
// the upstream challenge). The browser never sees the token: it is not in any
// frame svc forwards, and the device token a gateway may issue in `hello-ok`
// is removed on the way back.
//
// Ordering: every browser frame that arrives before the rewritten connect has
// gone upstream is held (in order, up to a byte cap), so nothing overtakes it.
// The browser's Origin header is passed upstream: the gateway treats a
// connect with an Origin as a browser's and applies its pairing policy to
// svc's device (NOT_PAIRED until POST /api/system/approve-device).
//
// At most `maxConnections` proxied connections (SVC_MAX_PROXY_CONNECTIONS,
// upgrades still in their handshake included) are open at once: one more is
// answered `HTTP/1.1 503` on its socket, which is then closed.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { ClientInfo, buildConnectParams, svcClientInfo } from '../../shared/gateway/connect-params.ts';
import type { DeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { ChallengePayload, ReqFrame } from '../../shared/gateway/protocol.ts';
import type { Logger } from '../../shared/log.ts';
import { tokenNeededMessage, type ResolvedGateway } from '../../shared/settings/index.ts';
import type { UpgradeHandler } from './upgrade.ts';

/** Bytes of browser frames held before the connect has gone upstream, and of unsent data either way. */
export const PROXY_BUFFER_CAP = 1024 * 1024;
const PING_INTERVAL_MS = 25_000;
const UPSTREAM_HANDSHAKE_MS = 10_000;
/** What the gateway accepts in a single frame (its policy.maxPayload is 25 MiB). */
const MAX_FRAME_BYTES = 25 * 1024 * 1024;

export interface GatewayProxy {
  handle: UpgradeHandler;
  /** Open proxied connections. */
  count(): number;
  closeAll(): void;
}

export interface ProxyDeps {
  resolved: () => ResolvedGateway;
  identity: () => DeviceIdentity;
  version: string;
  logger: Logger;
  /** Proxied connections open at once (config.maxProxyConnections). */
  maxConnections: number;
}

export const tooManyProxyConnections = (limit: number) => `too many gateway connections (limit ${limit})`;

/** Answers an upgrade request with 503 and a JSON `{ error }`, then closes the socket. */
function refuseUpgrade(socket: Duplex, message: string): void {
  const body = JSON.stringify({ error: message });
  // After 'upgrade' the HTTP server no longer listens for socket errors: a
  // client gone before the answer (ECONNRESET) would be an uncaught error.
  socket.on('error', () => socket.destroy());
  socket.end(
    'HTTP/1.1 503 Service Unavailable\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
}

/** A close code that may be sent in a close frame (1005, 1006 and 1015 are only ever observed). */
function sendableCode(code: number, fallback: number): number {
  if (code === 1000 || (code >= 1001 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999)) return code;
  return fallback;
}

/** The browser's connect rewritten: its client fields, svc's token and device proof. */
export function rewriteConnect(
  frame: ReqFrame,
  challenge: { nonce: string; ts: number },
  token: string,
  identity: DeviceIdentity,
  version: string,
): string {
  const params = (frame.params && typeof frame.params === 'object' ? frame.params : {}) as Record<string, unknown>;
  const client = ClientInfo.safeParse(params.client);
  const strings = (v: unknown) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : undefined);
  // The browser's own auth and device fields are dropped; everything else it said is kept.
  const { auth: _auth, device: _device, client: _client, role, scopes, caps, locale, userAgent, minProtocol: _min, maxProtocol: _max, ...passthrough } = params;
  const rewritten = buildConnectParams({
    identity,
    token,
    nonce: challenge.nonce,
    signedAt: challenge.ts,
    client: client.success ? client.data : svcClientInfo(version),
    role: typeof role === 'string' ? role : undefined,
    scopes: strings(scopes),
    caps: strings(caps),
    locale: typeof locale === 'string' ? locale : undefined,
    userAgent: typeof userAgent === 'string' ? userAgent : undefined,
    passthrough,
  });
  return JSON.stringify({ type: 'req', id: frame.id, method: 'connect', params: rewritten });
}

/** Removes what the browser must not see from an upstream frame: a hello-ok's device token, the shared token anywhere. */
export function scrubUpstream(text: string, token: string, connectId: string | null): string {
  let out = text;
  if (connectId !== null && out.includes('"deviceToken"')) {
    try {
      const frame = JSON.parse(out) as { type?: unknown; id?: unknown; payload?: { auth?: Record<string, unknown> } };
      if (frame.type === 'res' && frame.id === connectId && frame.payload?.auth && 'deviceToken' in frame.payload.auth) {
        delete frame.payload.auth.deviceToken;
        out = JSON.stringify(frame);
      }
    } catch {
      // Not JSON: forwarded as it is (the token check below still applies).
    }
  }
  return token !== '' && out.includes(token) ? out.split(token).join('••••') : out;
}

export function createGatewayProxy(deps: ProxyDeps): GatewayProxy {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES });
  const open = new Set<{ close(): void }>();
  const log = deps.logger.child({ component: 'gateway-proxy' });

  const pipe = (browser: WebSocket, req: IncomingMessage) => {
    const target = deps.resolved();
    // A gateway URL moved to another origin without its own token: nothing is signed or sent there.
    if (target.tokenNeededFor !== undefined) {
      browser.close(1008, tokenNeededMessage(target.tokenNeededFor));
      return;
    }
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    const upstream = new WebSocket(target.gatewayUrl, {
      perMessageDeflate: false,
      handshakeTimeout: UPSTREAM_HANDSHAKE_MS,
      maxPayload: MAX_FRAME_BYTES,
      ...(origin ? { origin } : {}),
    });
    let challenge: { nonce: string; ts: number } | null = null;
    let connectId: string | null = null; // set once the rewritten connect went upstream
    let pendingConnect: ReqFrame | null = null;
    const held: string[] = [];
    let heldBytes = 0;
    let ended = false;

    const end = (browserCode: number, upstreamCode: number, reason: string) => {
      if (ended) return;
      ended = true;
      clearInterval(pinger);
      open.delete(entry);
      const r = reason.slice(0, 120); // a close reason is at most 123 bytes
      if (browser.readyState === WebSocket.OPEN) browser.close(sendableCode(browserCode, 1011), r);
      else browser.terminate();
      if (upstream.readyState === WebSocket.OPEN) upstream.close(sendableCode(upstreamCode, 1000), r);
      else upstream.terminate();
    };
    const entry = { close: () => end(1001, 1001, 'svc shutting down') };
    open.add(entry);

    const sendUp = (text: string) => {
      if (upstream.bufferedAmount > PROXY_BUFFER_CAP) return end(1013, 1008, 'proxy buffer full');
      upstream.send(text);
    };
    const flushConnect = () => {
      if (!pendingConnect || !challenge || upstream.readyState !== WebSocket.OPEN) return;
      const frame = pendingConnect;
      pendingConnect = null;
      let text: string;
      try {
        text = rewriteConnect(frame, challenge, target.token, deps.identity(), deps.version);
      } catch (err) {
        log.error({ err }, 'could not sign the connect for the browser');
        return end(1011, 1000, 'svc could not sign the connect');
      }
      connectId = frame.id;
      sendUp(text);
      for (const h of held.splice(0)) sendUp(h);
      heldBytes = 0;
    };

    browser.on('message', (data: RawData, isBinary) => {
      if (ended) return;
      if (isBinary) return end(1003, 1000, 'binary frames are not part of the gateway protocol');
      const text = data.toString();
      if (connectId !== null) return sendUp(text);
      if (!pendingConnect) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = null; // not JSON: held like any other early frame; the gateway will answer it
        }
        const req = ReqFrame.safeParse(json);
        if (req.success && req.data.method === 'connect') {
          pendingConnect = req.data;
          return flushConnect();
        }
      }
      heldBytes += Buffer.byteLength(text);
      if (heldBytes > PROXY_BUFFER_CAP) return end(1009, 1000, 'too much sent before connect');
      held.push(text);
    });

    upstream.on('message', (data: RawData, isBinary) => {
      if (ended || isBinary) return;
      const text = data.toString();
      if (challenge === null && text.includes('connect.challenge')) {
        try {
          const frame = JSON.parse(text) as { type?: unknown; event?: unknown; payload?: unknown };
          const ch = ChallengePayload.safeParse(frame.payload);
          if (frame.type === 'event' && frame.event === 'connect.challenge' && ch.success) {
            challenge = ch.data;
            flushConnect();
          }
        } catch {
          // Not JSON: not the challenge; forwarded as is.
        }
      }
      if (browser.bufferedAmount > PROXY_BUFFER_CAP) return end(1013, 1001, 'browser not reading');
      browser.send(scrubUpstream(text, target.token, connectId));
    });

    upstream.on('open', flushConnect);
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      log.warn({ code: err.code }, `gateway upstream error: ${err.message}`);
      end(1014, 1000, `gateway unreachable (${err.code ?? 'error'})`);
    });
    upstream.on('close', (code, reason) => end(code, 1000, reason.toString() || 'gateway closed'));
    browser.on('error', (err) => {
      log.debug({ err }, 'browser socket error');
      end(1011, 1001, 'browser socket error');
    });
    browser.on('close', (code, reason) => end(1000, code, reason.toString() || 'browser closed'));

    // Pings keep both legs alive through idle periods (and detect dead peers).
    const pinger = setInterval(() => {
      if (upstream.readyState === WebSocket.OPEN) upstream.ping();
      if (browser.readyState === WebSocket.OPEN) browser.ping();
    }, PING_INTERVAL_MS);
    pinger.unref();
  };

  // Upgrades accepted but not yet handed to pipe(): they count toward the cap.
  let handshaking = 0;
  let lastRefusalLogged = 0;

  return {
    handle: (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (open.size + handshaking >= deps.maxConnections) {
        // Once a minute at most: a flood of refused upgrades must not flood the log too.
        if (Date.now() - lastRefusalLogged > 60_000) {
          lastRefusalLogged = Date.now();
          log.warn({ limit: deps.maxConnections }, 'gateway proxy connections refused: at the limit (SVC_MAX_PROXY_CONNECTIONS)');
        }
        return refuseUpgrade(socket, tooManyProxyConnections(deps.maxConnections));
      }
      handshaking++;
      let counted = true;
      const settle = () => {
        if (counted) handshaking--;
        counted = false;
      };
      // A handshake that fails (ws answers 400 and destroys the socket) never reaches the callback.
      socket.once('close', settle);
      wss.handleUpgrade(req, socket, head, (browser) => {
        settle();
        socket.off('close', settle);
        pipe(browser, req);
      });
    },
    count: () => open.size,
    closeAll: () => {
      for (const c of [...open]) c.close();
    },
  };
}
