// Worker supervision: starts each long-lived worker thread, restarts it when
// it exits or throws (exponential backoff), and gives up after a restart
// intensity limit, reporting the service `down` in /api/health instead of
// flapping. Requests in flight to a worker that dies fail at once with a
// clear error rather than hanging. A crash in a worker never reaches the
// HTTP front door.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../shared/log.ts';
import type { Contract } from '../../shared/channels/contract.ts';
import { createChannelClient, type ChannelClient } from '../../shared/channels/client.ts';
import { Readiness } from './readiness.ts';

export type ServiceState = 'starting' | 'running' | 'restarting' | 'down' | 'stopped';

export interface RestartPolicy {
  /** At most this many restarts within windowMs, then the service is down. */
  maxRestarts: number;
  windowMs: number;
  baseBackoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxRestarts: 5,
  windowMs: 60_000,
  baseBackoffMs: 200,
  maxBackoffMs: 10_000,
};

export interface WorkerSpec<C extends Contract> {
  name: string;
  entry: URL;
  contract: C;
  /** Called for each (re)start: fresh workerData, then wiring of event handlers. */
  workerData: () => unknown;
  onStart?: (client: ChannelClient<C>) => void;
  policy?: Partial<RestartPolicy>;
  /** Name of a request that asks the worker to shut down cleanly. */
  stopMethod?: keyof C['requests'] & string;
  /** Called each time the thread has exited (a crash or a stop), before any restart: e.g. end the child processes it left. */
  onExit?: (code: number) => void;
  /**
   * The event the worker emits once it serves (its own start-up done), and
   * what must reach it before anything else (its configuration). The service
   * serves from then until the thread exits; without this, from `online`.
   */
  ready?: { event: keyof C['events'] & string; prepare?: (client: ChannelClient<C>) => Promise<void> };
}

export interface ServiceStatus {
  name: string;
  state: ServiceState;
  restarts: number;
  lastExitCode: number | null;
  lastError: string | null;
  since: number;
}

export interface Service<C extends Contract> {
  readonly name: string;
  status(): ServiceStatus;
  /** The current channel; requests fail as values while the worker is not running. */
  request: ChannelClient<C>['request'];
  /** Whether the worker runs and said it serves (WorkerSpec.ready), so a request goes straight to it. */
  serving(): boolean;
  /** Resolves once the worker serves; rejects after `timeoutMs` (a worker that is down, or slow to start). */
  whenServing(timeoutMs: number): Promise<void>;
}

interface Managed {
  status: ServiceStatus;
  stop(): Promise<void>;
  /** Ends the thread as a crash would (restart policy applies); false when none runs. */
  terminate(): Promise<boolean>;
}

export class Supervisor {
  private readonly services = new Map<string, Managed>();
  private stopping = false;

  constructor(private readonly logger: Logger) {}

  start<C extends Contract>(spec: WorkerSpec<C>): Service<C> {
    const policy = { ...DEFAULT_RESTART_POLICY, ...spec.policy };
    const status: ServiceStatus = { name: spec.name, state: 'starting', restarts: 0, lastExitCode: null, lastError: null, since: Date.now() };
    const restartTimes: number[] = [];
    let worker: Worker | null = null;
    let client: ChannelClient<C> | null = null;
    let restartTimer: NodeJS.Timeout | null = null;
    const log = this.logger.child({ worker: spec.name });
    const readiness = new Readiness();
    const setState = (s: ServiceState) => {
      status.state = s;
      status.since = Date.now();
    };

    const launch = () => {
      setState(status.restarts === 0 ? 'starting' : 'restarting');
      const { url, data } = workerLaunch(spec.entry, spec.workerData());
      const w = new Worker(url, { workerData: data, name: spec.name });
      worker = w;
      const c = createChannelClient(spec.contract, w, { onInvalid: (d) => log.warn(d) });
      client = c;
      const generation = readiness.started();
      const ready = spec.ready;
      if (ready) {
        c.on(ready.event, () => {
          // What it needs first goes first: a request let through after it never meets an unprepared worker.
          void (ready.prepare ? ready.prepare(c) : Promise.resolve()).then(
            () => readiness.serves(generation),
            (err: unknown) => log.error({ err }, 'worker could not be prepared; requests keep waiting for its next start'),
          );
        });
      }
      spec.onStart?.(c);
      w.once('online', () => {
        setState('running');
        if (!ready) readiness.serves(generation);
      });
      w.on('error', (raw: unknown) => {
        // Errors from a worker arrive structured-cloned; a non-Error is described, not lost.
        const err = raw instanceof Error ? raw : new Error(describe(raw));
        status.lastError = err.message;
        log.error({ err }, 'worker threw');
      });
      w.once('exit', (code) => {
        readiness.exited();
        status.lastExitCode = code;
        c.failAll({ code: 'WORKER_EXITED', message: `worker ${spec.name} exited (code ${code})` });
        c.dispose();
        try {
          spec.onExit?.(code);
        } catch (err) {
          // The clean-up of a dead worker must not stop its restart; it is logged.
          log.error({ err }, 'exit handler of the worker failed');
        }
        if (worker === w) {
          worker = null;
          client = null;
        }
        if (this.stopping || status.state === 'stopped') return;
        onUnexpectedExit(code);
      });
    };

    const onUnexpectedExit = (code: number) => {
      const now = Date.now();
      while (restartTimes.length > 0 && (restartTimes[0] as number) < now - policy.windowMs) restartTimes.shift();
      if (restartTimes.length >= policy.maxRestarts) {
        setState('down');
        log.error({ code, restarts: status.restarts }, 'worker keeps failing: restart intensity exceeded, reporting it down');
        return;
      }
      restartTimes.push(now);
      const backoff = Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** (restartTimes.length - 1));
      status.restarts++;
      setState('restarting');
      log.warn({ code, backoffMs: backoff, restarts: status.restarts }, 'worker exited; restarting');
      restartTimer = setTimeout(launch, backoff);
    };

    const managed: Managed = {
      status,
      stop: async () => {
        if (restartTimer) clearTimeout(restartTimer);
        setState('stopped');
        readiness.stopped();
        const w = worker;
        const c = client;
        if (!w) return;
        const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
        if (c && spec.stopMethod) {
          const r = await c.request(spec.stopMethod, {} as never, { timeoutMs: 2000 });
          if (!r.ok) log.warn({ error: r.error }, 'worker did not stop cleanly; terminating');
        }
        const timer = setTimeout(() => void w.terminate(), 2000);
        await exited;
        clearTimeout(timer);
      },
      terminate: async () => {
        const w = worker;
        if (!w) return false;
        const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
        await w.terminate();
        await exited;
        return true;
      },
    };
    this.services.set(spec.name, managed);
    launch();

    return {
      name: spec.name,
      status: () => ({ ...status }),
      request: ((method, payload, opts) => {
        if (!client) {
          return Promise.resolve({ ok: false, error: { code: 'WORKER_UNAVAILABLE', message: `worker ${spec.name} is ${status.state}` } });
        }
        return client.request(method, payload, opts);
      }) as ChannelClient<C>['request'],
      serving: () => readiness.is() && status.state === 'running',
      whenServing: (timeoutMs) => readiness.wait(timeoutMs, () => `the ${spec.name} worker is not ready (${status.state}); try again shortly`),
    };
  }

  /**
   * Kills a worker's thread the way a crash would: its requests in flight
   * fail, its exit handler runs and the restart policy restarts it. For fault
   * tests and operator tooling; false when no such worker runs now.
   */
  async terminate(name: string): Promise<boolean> {
    const m = this.services.get(name);
    return m ? m.terminate() : false;
  }

  statuses(): ServiceStatus[] {
    return [...this.services.values()].map((m) => ({ ...m.status }));
  }

  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.services.values()].map((m) => m.stop()));
  }
}

// workers/ as seen from this file (supervisor/services/), in the sources and in dist/ alike.
const WORKERS_DIR = new URL('../../workers/', import.meta.url);

/** A worker's entry by its path under workers/ (`tail/main`): `.ts` under tsx, `.js` when compiled. */
export function workerEntry(underWorkers: string): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`${underWorkers}${ext}`, WORKERS_DIR);
}

const TSX_BOOTSTRAP = new URL('tsx-bootstrap.mjs', WORKERS_DIR);

/**
 * How to start an entry: a `.ts` entry (development, tests) goes through the
 * tsx bootstrap, because Node 20 worker threads do not inherit tsx's loader.
 */
export function workerLaunch(entry: URL, data: unknown): { url: URL; data: unknown } {
  if (!entry.pathname.endsWith('.ts')) return { url: entry, data };
  const base = data !== null && typeof data === 'object' ? data : {};
  return { url: TSX_BOOTSTRAP, data: { ...base, __entry: entry.href } };
}

function describe(v: unknown): string {
  if (v && typeof v === 'object') {
    const o = v as { message?: unknown; code?: unknown };
    if (typeof o.message === 'string') return o.message;
    if (typeof o.code === 'string') return `worker error ${o.code}`;
  }
  return String(v);
}
