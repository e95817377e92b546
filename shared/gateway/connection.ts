// A gateway connection that stays up: connects, and when the session ends or
// a connect fails, tries again with exponential backoff (0.5 s doubling to
// 30 s). Event handlers survive reconnects. reconfigure() drops the session
// and connects again at once (settings changed). The gateway link
// (supervisor/services/gateway-link.ts), svc's own server-side connection, is
// one of these: the team-chat orchestrator will send through it, health
// reports its state, and the exec-policy routes call the gateway through it.
import type { Logger } from '../log.ts';
import { connectGateway, type ConnectOptions, type GatewaySession, type RequestOptions } from './client.ts';
import { createEventHandlers, type EventHandler } from './event-handlers.ts';
import { GatewayError, type GatewayErrorShape } from './protocol.ts';

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'backoff' | 'stopped';

export interface ConnectionStatus {
  state: ConnectionState;
  url: string | null;
  connectedAt: number | null;
  /** The last connect or session failure (codes as the gateway gives them: NOT_PAIRED, AUTH_TOKEN_MISMATCH, UNREACHABLE, ...). */
  lastError: { code: string; message: string } | null;
  /** Connect attempts since the last success. */
  failures: number;
  serverVersion: string | null;
}

/**
 * Why there is a URL but no connect: nothing at all is sent to it (no
 * token, no device proof). The status shows the URL, state `idle` and this
 * as its lastError until the next reconfigure().
 */
export interface RefusedTarget {
  refused: { url: string; code: string; message: string };
}

/** Where to connect, resolved fresh on every attempt; null when nothing is configured; refused when it may not be. */
export type TargetFn = () => Omit<ConnectOptions, 'connectTimeoutMs'> | RefusedTarget | null;

export interface GatewayConnection {
  start(): void;
  stop(): Promise<void>;
  /** Drops the current session (if any) and connects again now. */
  reconfigure(): void;
  /** Someone is waiting for a session: a connection in backoff tries now instead of at the end of its delay. */
  nudge(): void;
  status(): ConnectionStatus;
  /** The status once no connect is in progress (waits at most `timeoutMs`). */
  settled(timeoutMs: number): Promise<ConnectionStatus>;
  /** A request on the live session; waits up to `waitMs` (default 5 s) for one, else UNAVAILABLE. */
  request(method: string, params?: unknown, opts?: RequestOptions & { waitMs?: number }): Promise<unknown>;
  /** The live session, if connected. */
  session(): GatewaySession | null;
  on(event: string, handler: EventHandler): () => void;
  onStatus(handler: (s: ConnectionStatus) => void): void;
}

export interface ConnectionOptions {
  target: TargetFn;
  logger: Logger;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  connectTimeoutMs?: number;
}

export function createGatewayConnection(opts: ConnectionOptions): GatewayConnection {
  const base = opts.baseBackoffMs ?? 500;
  const max = opts.maxBackoffMs ?? 30_000;
  const log = opts.logger;
  const events = createEventHandlers();
  const statusHandlers: Array<(s: ConnectionStatus) => void> = [];
  const waiters = new Set<() => void>();
  let current: GatewaySession | null = null;
  let generation = 0; // bumps on reconfigure/stop: a connect from an older generation is discarded
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let attempts = 0;
  const status: ConnectionStatus = { state: 'idle', url: null, connectedAt: null, lastError: null, failures: 0, serverVersion: null };

  const publish = (patch: Partial<ConnectionStatus>) => {
    Object.assign(status, patch);
    const snapshot = { ...status };
    for (const h of statusHandlers) h(snapshot);
  };
  const wakeWaiters = () => {
    for (const w of [...waiters]) w();
  };

  // Read through a function: TypeScript would otherwise keep the narrowing from before an await.
  const superseded = (gen: number) => gen !== generation || status.state === 'stopped';

  const schedule = (delayMs: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void attempt(), delayMs);
    timer.unref();
  };

  const attempt = async () => {
    timer = null;
    if (status.state === 'stopped') return;
    attempts++;
    const gen = generation;
    const target = opts.target();
    if (!target) {
      publish({ state: 'idle', url: null });
      return;
    }
    if ('refused' in target) {
      const { url, code, message } = target.refused;
      log.warn({ code }, `gateway not contacted: ${message}`);
      publish({ state: 'idle', url, connectedAt: null, lastError: { code, message } });
      // Whoever waits for a session learns why now rather than at the end of its wait.
      wakeWaiters();
      return;
    }
    publish({ state: 'connecting', url: target.url });
    try {
      const s = await connectGateway({ ...target, connectTimeoutMs: opts.connectTimeoutMs ?? 15_000 });
      if (superseded(gen)) {
        void s.close(1000, 'superseded');
        return;
      }
      current = s;
      const server = (s.hello.server as { version?: unknown } | undefined)?.version;
      publish({ state: 'connected', connectedAt: Date.now(), lastError: null, failures: 0, serverVersion: typeof server === 'string' ? server : null });
      log.info({ url: target.url }, 'gateway connected');
      s.on('*', events.emit);
      s.onClose((code) => {
        if (current !== s) return;
        current = null;
        if (superseded(gen)) return;
        log.warn({ code }, 'gateway connection closed; reconnecting');
        publish({ state: 'backoff', connectedAt: null, lastError: { code: 'CLOSED', message: `connection closed (${code})` } });
        schedule(base);
      });
      wakeWaiters();
    } catch (err) {
      if (superseded(gen)) return;
      const e = err instanceof GatewayError ? err : new GatewayError({ code: 'UNREACHABLE', message: String(err) });
      const failures = status.failures + 1;
      const delay = Math.min(max, base * 2 ** Math.min(failures - 1, 16));
      // Quiet after the first few: a gateway that is simply not running is the common case.
      if (failures <= 3) log.warn({ code: e.code, retryInMs: delay }, `gateway connect failed: ${e.message}`);
      publish({ state: 'backoff', lastError: { code: e.code, message: e.message }, failures });
      schedule(delay);
    }
  };

  const dropSession = () => {
    generation++;
    const s = current;
    current = null;
    if (s) void s.close(1000, 'reconfigure');
  };

  return {
    start() {
      started = true;
      if (status.state === 'idle' || status.state === 'stopped') {
        publish({ state: 'idle' });
        schedule(0);
      }
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      generation++;
      publish({ state: 'stopped', connectedAt: null });
      const s = current;
      current = null;
      wakeWaiters();
      if (s) await s.close(1000, 'svc stopping');
    },
    reconfigure() {
      if (status.state === 'stopped') return;
      dropSession();
      publish({ state: 'idle', failures: 0, connectedAt: null });
      schedule(0);
    },
    nudge() {
      if (status.state === 'backoff') schedule(0);
    },
    status: () => ({ ...status }),
    async settled(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const busy = () => started && (status.state === 'connecting' || (status.state === 'idle' && timer !== null) || attempts === 0);
      while (busy() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return { ...status };
    },
    session: () => current,
    async request(method, params, ropts = {}) {
      if (!current && status.state !== 'stopped') {
        const waitMs = ropts.waitMs ?? 5000;
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(t);
            waiters.delete(wake);
            resolve();
          };
          const t = setTimeout(wake, waitMs);
          waiters.add(wake);
        });
      }
      const s = current;
      if (!s) {
        const why: GatewayErrorShape = status.lastError
          ? { code: 'UNAVAILABLE', message: `gateway not connected (${status.lastError.code}: ${status.lastError.message})` }
          : { code: 'UNAVAILABLE', message: 'gateway not connected' };
        throw new GatewayError(why);
      }
      return s.request(method, params, ropts);
    },
    on: events.on,
    onStatus(handler) {
      statusHandlers.push(handler);
    },
  };
}
