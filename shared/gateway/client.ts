// One authenticated WebSocket session with the gateway (OpenClaw protocol 4):
// wait for `connect.challenge`, answer with `connect` (token and a v3 device
// proof), then correlate requests with responses (each bounded by a timeout)
// and hand events to subscribers. A retryable refusal of the connect
// (`UNAVAILABLE` while the gateway's sidecars start) is retried after the
// delay the gateway asks for, within the connect deadline.
//
// Subscribe before you ask: a handler registered with on() sees every event
// that arrives after the call, so a caller that wants a run's `chat` events
// subscribes first and sends `chat.send` second (see chat.ts).
import WebSocket from 'ws';
import { buildConnectParams, svcClientInfo, type ClientInfo } from './connect-params.ts';
import type { DeviceIdentity } from './device-identity.ts';
import { createEventHandlers, type EventHandler } from './event-handlers.ts';
import { ChallengePayload, GatewayError, parseInbound } from './protocol.ts';

export interface ConnectOptions {
  url: string;
  /** The gateway's shared token ('' for none). Never logged, never in an error. */
  token: string;
  identity: DeviceIdentity;
  /** svc's version, for client.version and the user agent. */
  version: string;
  client?: ClientInfo;
  scopes?: readonly string[];
  caps?: readonly string[];
  /** Sent as the WebSocket Origin header (a gateway treats a connect with an Origin as a browser's). */
  origin?: string;
  /** Whole connect, retries of UNAVAILABLE included (default 15 s). */
  connectTimeoutMs?: number;
  /** Default bound of a request (default 15 s). */
  requestTimeoutMs?: number;
}

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type { EventHandler };

export interface GatewaySession {
  /** The `hello-ok` payload. */
  readonly hello: Record<string, unknown>;
  request(method: string, params?: unknown, opts?: RequestOptions): Promise<unknown>;
  /** Subscribes to one event name ('*' for all); returns the unsubscribe. */
  on(event: string, handler: EventHandler): () => void;
  /** Called once when the session ends, with the close code and the reason. */
  onClose(handler: (code: number, reason: string) => void): void;
  readonly closed: boolean;
  close(code?: number, reason?: string): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
/** The reference client gives up after two missed ticks. */
const TICK_GRACE_FACTOR = 2;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: GatewayError) => void;
  timer: NodeJS.Timeout;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens a session; rejects with a GatewayError (the gateway's code, or UNREACHABLE / TIMEOUT / CLOSED). */
export async function connectGateway(opts: ConnectOptions): Promise<GatewaySession> {
  const deadline = Date.now() + (opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  for (;;) {
    try {
      return await attempt(opts, deadline);
    } catch (err) {
      const e = err instanceof GatewayError ? err : new GatewayError({ code: 'UNREACHABLE', message: String(err) });
      const wait = e.retryAfterMs ?? 500;
      if (!e.retryable || Date.now() + wait >= deadline) throw e;
      await sleep(wait);
    }
  }
}

function attempt(opts: ConnectOptions, deadline: number): Promise<GatewaySession> {
  return new Promise((resolve, reject) => {
    const remaining = Math.max(1, deadline - Date.now());
    const ws = new WebSocket(opts.url, {
      perMessageDeflate: false,
      handshakeTimeout: remaining,
      ...(opts.origin ? { origin: opts.origin } : {}),
    });
    let settled = false;
    const fail = (e: GatewayError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners('message');
      ws.on('error', () => undefined); // the session is abandoned; late socket errors have no one to tell
      ws.terminate();
      reject(e);
    };
    const timer = setTimeout(() => fail(new GatewayError({ code: 'TIMEOUT', message: 'gateway connect timed out' })), remaining);
    const connectId = 'connect-1';

    ws.once('error', (err: NodeJS.ErrnoException) =>
      fail(new GatewayError({ code: 'UNREACHABLE', message: `gateway not reachable: ${err.code ?? err.message}`, retryable: false })),
    );
    ws.once('close', (code) => fail(new GatewayError({ code: 'CLOSED', message: `gateway closed the connection during connect (${code})` })));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const frame = parseInbound(data.toString());
      if (!frame) return;
      if (frame.type === 'event' && frame.event === 'connect.challenge') {
        const ch = ChallengePayload.safeParse(frame.payload);
        if (!ch.success) return fail(new GatewayError({ code: 'PROTOCOL', message: 'malformed connect.challenge' }));
        const params = buildConnectParams({
          identity: opts.identity,
          token: opts.token,
          nonce: ch.data.nonce,
          signedAt: ch.data.ts,
          client: opts.client ?? svcClientInfo(opts.version),
          scopes: opts.scopes,
          caps: opts.caps,
        });
        ws.send(JSON.stringify({ type: 'req', id: connectId, method: 'connect', params }));
        return;
      }
      if (frame.type === 'res' && frame.id === connectId) {
        if (!frame.ok) return fail(new GatewayError(frame.error));
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ws.removeAllListeners('message');
        ws.removeAllListeners('error');
        ws.removeAllListeners('close');
        const hello = (frame.payload ?? {}) as Record<string, unknown>;
        resolve(createSession(ws, hello, opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
      }
    });
  });
}

function tickIntervalOf(hello: Record<string, unknown>): number | null {
  const policy = hello.policy as { tickIntervalMs?: unknown } | undefined;
  const t = policy?.tickIntervalMs;
  return typeof t === 'number' && t > 0 ? t : null;
}

function createSession(ws: WebSocket, hello: Record<string, unknown>, requestTimeoutMs: number): GatewaySession {
  let nextId = 1;
  const pending = new Map<string, Pending>();
  const events = createEventHandlers();
  const closeHandlers: Array<(code: number, reason: string) => void> = [];
  let closed = false;
  const closedPromise = new Promise<void>((r) => ws.once('close', () => r()));

  // The gateway ticks every policy.tickIntervalMs; silence for two ticks means
  // the connection is dead even if TCP has not noticed.
  const tick = tickIntervalOf(hello);
  let watchdog: NodeJS.Timeout | null = null;
  const armWatchdog = () => {
    if (tick === null || closed) return;
    if (watchdog) clearTimeout(watchdog);
    watchdog = setTimeout(() => ws.close(4000, 'tick timeout'), tick * TICK_GRACE_FACTOR);
    watchdog.unref();
  };
  armWatchdog();

  ws.on('message', (data, isBinary) => {
    armWatchdog();
    if (isBinary) return;
    const frame = parseInbound(data.toString());
    if (!frame) return;
    if (frame.type === 'event') return events.emit(frame);
    const p = pending.get(frame.id);
    if (!p) return;
    pending.delete(frame.id);
    clearTimeout(p.timer);
    if (frame.ok) p.resolve(frame.payload);
    else p.reject(new GatewayError(frame.error));
  });
  ws.on('error', () => {
    // 'close' follows every 'error' in ws; the close handler reports the end.
  });
  ws.once('close', (code, reasonBuf) => {
    closed = true;
    if (watchdog) clearTimeout(watchdog);
    const reason = reasonBuf.toString();
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(new GatewayError({ code: 'CLOSED', message: `gateway connection closed (${code})` }));
    }
    pending.clear();
    for (const h of closeHandlers) h(code, reason);
  });

  return {
    hello,
    get closed() {
      return closed;
    },
    request(method, params = {}, ropts = {}) {
      if (closed || ws.readyState !== WebSocket.OPEN) {
        return Promise.reject(new GatewayError({ code: 'CLOSED', message: 'gateway connection is closed' }));
      }
      const id = `r${nextId++}`;
      const timeoutMs = ropts.timeoutMs ?? requestTimeoutMs;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new GatewayError({ code: 'TIMEOUT', message: `gateway ${method} timed out after ${timeoutMs} ms` }));
        }, timeoutMs);
        const signal = ropts.signal;
        const onAbort = () => {
          if (!pending.delete(id)) return;
          clearTimeout(timer);
          reject(new GatewayError({ code: 'ABORTED', message: `gateway ${method} aborted` }));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        const done = () => signal?.removeEventListener('abort', onAbort);
        pending.set(id, {
          resolve: (v) => (done(), resolve(v)),
          reject: (e) => (done(), reject(e)),
          timer,
        });
        ws.send(JSON.stringify({ type: 'req', id, method, params }));
      });
    },
    on: events.on,
    onClose(handler) {
      if (closed) handler(1006, 'already closed');
      else closeHandlers.push(handler);
    },
    async close(code = 1000, reason = 'client closing') {
      if (!closed) {
        ws.close(code, reason);
        // A peer that does not answer the close handshake is cut off.
        const force = setTimeout(() => ws.terminate(), 2000);
        await closedPromise;
        clearTimeout(force);
      }
    },
  };
}
