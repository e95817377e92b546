// The gateway-host worker as the routes see it: lifecycle (start, stop,
// restart, status), installs and the gateway CLI run in that worker behind
// its channel contract; the supervisor routes each operation's frames to the
// stream that asked for it. When a gateway start completes, the env-file
// token is synced into settings and the gateway link (gateway-link.ts)
// reconnects before the complete frame goes out (spec "POST
// /api/system/gateway"; the sync itself is shared/gateway/settings-sync.ts).
// Issue 15 #17: the child processes the worker reports are ended when its
// thread exits (worker-children.ts), and one install runs at a time:
// install-gateway and self-update both run `npm install -g`, and a second
// one beside the first would race it over the same global folder; the Node
// install (issue 30 #6) brings the Node install-gateway runs on.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  gatewayHostContract,
  type GatewayHostContract, type GatewayHostWorkerData, type OpStreamFrame,
} from '../../shared/channels/gateway-host.ts';
import { lookupEnv, type Config } from '../../shared/config.ts';
import type { Logger } from '../../shared/log.ts';
import type { SvcPaths } from '../../shared/paths.ts';
import {
  syncAfterGatewayStart, syncGatewaySettings, type GatewaySettingsSources, type GatewaySettingsTarget,
} from '../../shared/gateway/settings-sync.ts';
import { workerEntry, type Service, type Supervisor } from './supervision.ts';
import { createWorkerChildren } from './worker-children.ts';

/** An SSE frame as the spec writes it (no operation id). */
export type OpFrame = OpStreamFrame;

export type StreamingOp = 'start' | 'restart' | 'install' | 'installNode' | 'selfUpdate';

/**
 * The operations that run npm install: one at a time. The Node install
 * (issue 30 #6) is not global, but install-gateway needs the Node it brings,
 * so it waits its turn like the others.
 */
const INSTALL_OPS: ReadonlySet<StreamingOp> = new Set(['install', 'installNode', 'selfUpdate']);
/** The 409 of install-gateway, install-node and self-update while one of them runs. */
export const INSTALL_RUNNING = 'an install is already running';

export interface GatewayHostHandle {
  /** A request to the worker; fails as a value (WORKER_UNAVAILABLE) when it is not running. */
  request: Service<GatewayHostContract>['request'];
  /** Runs a streaming operation; `onFrame` sees its frames until it ends. `signal` aborts: the client went away. */
  run(op: StreamingOp, onFrame: (f: OpFrame) => void, opts: { signal: AbortSignal; restart?: boolean }): Promise<void>;
  /** Env-file token into settings (as a `${NAME}` reference); true when settings changed. */
  syncToken(): boolean;
  /**
   * Whether an install (install-gateway, install-node or self-update) is running.
   * A route checks it and then calls run() in the same tick, and run()
   * registers its operation before it first awaits, so two requests cannot
   * both pass.
   */
  installRunning(): boolean;
}

export interface GatewayHostContext {
  supervisor: Supervisor;
  config: Config;
  paths: SvcPaths;
  logger: Logger;
  startWorkers: boolean;
  /** Where a synced token is saved. */
  settings?: Pick<GatewaySettingsTarget, 'save'>;
  /** The gateway link: reconnect after a start or a token change. */
  reconnect?: () => void;
  /** Whether svc routes the gateway's model calls now (a gateway it starts then gets no provider key from svc's environment). */
  routing?: () => boolean;
  /** Test seam: another worker entry serving the same contract (default workers/gateway-host/main). */
  entry?: URL;
}

// Each bound covers the operation's own limits with room to spare; the
// worker enforces the real ones (120 polls, 2 s grace, 15 min install).
const OP_TIMEOUT_MS: Record<StreamingOp, number> = {
  start: 180_000,
  restart: 190_000,
  install: 16 * 60_000,
  installNode: 16 * 60_000,
  selfUpdate: 17 * 60_000,
};

export function startGatewayHost(ctx: GatewayHostContext): GatewayHostHandle {
  const { config, paths, logger } = ctx;
  const sinks = new Map<string, { op: StreamingOp; onFrame: (f: OpFrame) => void }>();
  const children = createWorkerChildren(logger.child({ worker: 'gateway-host' }));
  const installRunning = () => [...sinks.values()].some((s) => INSTALL_OPS.has(s.op));

  // Settings follow the gateway it runs (shared/gateway/settings-sync.ts).
  const sources: GatewaySettingsSources = { gatewayStateDir: config.gatewayStateDir, settingsFile: paths.settingsFile, lookupEnv };
  const { settings, reconnect } = ctx;

  const deliver = (opId: string, frame: OpFrame) => {
    const sink = sinks.get(opId);
    if (!sink) return;
    if (frame.type === 'complete' && (sink.op === 'start' || sink.op === 'restart')) {
      // Before the complete frame goes out: the client that sees it finds svc pointed at the new gateway.
      if (settings) syncAfterGatewayStart(sources, frame.port ?? null, { save: (p) => settings.save(p), reconnect: () => reconnect?.() }, logger);
      else reconnect?.();
    }
    sink.onFrame(frame);
  };

  const unavailable: Service<GatewayHostContract>['request'] = () =>
    Promise.resolve({ ok: false, error: { code: 'WORKER_UNAVAILABLE', message: 'gateway-host worker is not running' } });

  let service: Service<GatewayHostContract> | null = null;
  if (ctx.startWorkers) {
    const data: GatewayHostWorkerData = {
      svcHome: config.svcHome,
      version: config.version,
      packageRoot: config.packageRoot,
      gatewayStateDir: config.gatewayStateDir,
      gatewayCli: config.gatewayCli,
      gatewayPackage: config.gatewayPackage,
      updatePackage: config.updatePackage,
      updateRegistry: config.updateRegistry,
      gatewayPidFile: paths.gatewayPidFile,
      gatewayLogFile: join(paths.logsDir, 'gateway.log'),
      deviceIdentityFile: paths.deviceIdentityFile,
      settingsFile: paths.settingsFile,
    };
    service = ctx.supervisor.start({
      name: 'gateway-host',
      entry: ctx.entry ?? workerEntry('gateway-host/main'),
      contract: gatewayHostContract,
      stopMethod: 'stopWorker',
      workerData: () => data,
      // Crash or stop: no CLI run or install outlives the worker that bounds it (the gateway is never reported: it outlives svc).
      onExit: () => void children.reap(),
      onStart: (client) => {
        client.on('childStarted', ({ pid }) => children.started(pid));
        client.on('childEnded', ({ pid }) => children.ended(pid));
        client.on('progress', ({ opId, ...f }) => deliver(opId, { type: 'progress', ...f }));
        client.on('output', ({ opId, ...f }) => deliver(opId, { type: 'output', ...f }));
        client.on('error', ({ opId, ...f }) => deliver(opId, { type: 'error', ...f }));
        client.on('complete', ({ opId, ...f }) => deliver(opId, { type: 'complete', ...f }));
      },
    });
  }
  const request = service ? service.request : unavailable;

  return {
    request,
    syncToken: () => (settings ? syncGatewaySettings(sources, null, (p) => settings.save(p), logger) : false),
    installRunning,
    async run(op, onFrame, opts) {
      // The routes answer 409 first; this keeps the rule whoever calls.
      if (INSTALL_OPS.has(op) && installRunning()) return onFrame({ type: 'error', code: 'INSTALL_RUNNING', message: INSTALL_RUNNING });
      const opId = randomUUID();
      let ended = false;
      sinks.set(opId, {
        op,
        onFrame: (f) => {
          if (f.type === 'complete' || (f.type === 'error' && f.code !== 'EACCES')) ended = true;
          onFrame(f);
        },
      });
      const onAbort = () =>
        void request('cancel', { opId }, { timeoutMs: 2000 }).then((r) => {
          if (!r.ok) logger.warn({ error: r.error, op }, 'cancel of a gateway-host operation failed');
        });
      opts.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const timeoutMs = OP_TIMEOUT_MS[op];
        const r =
          op === 'selfUpdate'
            ? await request('selfUpdate', { opId, restart: opts.restart ?? false }, { timeoutMs })
            : op === 'start' || op === 'restart'
              ? await request(op, { opId, routing: ctx.routing?.() ?? false }, { timeoutMs })
              : await request(op, { opId }, { timeoutMs });
        // The worker died or the bound passed without a last frame: say so rather than leave the stream open.
        if (!r.ok && !ended) onFrame({ type: 'error', code: 'INTERNAL', message: r.error.message });
      } finally {
        opts.signal.removeEventListener('abort', onAbort);
        sinks.delete(opId);
      }
    },
  };
}
