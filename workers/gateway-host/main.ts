// The gateway-host worker: the gateway process, the gateway CLI and global
// installs, behind the gateway-host channel. Operations that stream (start,
// restart, install, self-update) emit frames tagged with the caller's
// operation id and answer their request when they end. Every child process
// started here (CLI runs, installs; not the gateway, which outlives svc by
// design) is reported to the supervisor while it runs, so a crash of this
// worker never leaves one behind (issue 15 #17). Issue 30 #6: once svc has
// installed its own Node for the gateway (node-install.ts), every gateway CLI
// run, the gateway itself and install-gateway's npm get a PATH with that
// Node's folder first (`cliPath`); self-update does not (svc runs on its own
// Node, and npm's default global folder follows the node that runs it).
import { parentPort, workerData } from 'node:worker_threads';
import {
  GatewayHostWorkerData, gatewayHostContract, UPDATE_PACKAGE_UNSET, type OpDone, type OpKind,
} from '../../shared/channels/gateway-host.ts';
import { serveChannel } from '../../shared/channels/server.ts';
import { childEnv } from '../../shared/config.ts';
import { managedNodeBinary, managedNodeSpec, withManagedNode } from '../../shared/gateway/managed-node.ts';
import { loadOrCreateDeviceIdentity, type DeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { gatewayAuthFromConfig, readGatewayConfig } from '../../shared/settings/index.ts';
import { approveDevice } from './approve-device.ts';
import { createCliDetector } from './cli.ts';
import { runGlobalInstall } from './install.ts';
import { createLifecycle, type OpEmitter } from './lifecycle.ts';
import { installManagedNode } from './node-install.ts';
import { watchChildren } from './proc.ts';
import { createReadiness, reachable } from './readiness.ts';
import { latestVersion, restartSvc, updateSpec } from './self-update.ts';
import { messageOf } from '../../shared/errors.ts';

if (!parentPort) throw new Error('gateway-host worker must run in a worker thread');
const port = parentPort;
const data = GatewayHostWorkerData.parse(workerData);

let identity: DeviceIdentity | null = null;
const deviceIdentity = () => (identity ??= loadOrCreateDeviceIdentity(data.deviceIdentityFile));
const managedNode = () => managedNodeBinary(data.svcHome);
/** The PATH of everything that runs the gateway CLI: the managed Node first, when svc installed one. */
const cliPath = () => withManagedNode(managedNode(), childEnv().PATH);
const cli = createCliDetector({
  cliOverride: data.gatewayCli,
  stateDir: data.gatewayStateDir,
  cliPath,
  managedNode,
  managedSpec: managedNodeSpec(),
});
const lifecycle = createLifecycle({
  path: cliPath,
  pidFile: data.gatewayPidFile,
  logFile: data.gatewayLogFile,
  stateDir: data.gatewayStateDir,
  cli: () => cli.resolve(),
  configuredPort: () => gatewayAuthFromConfig(readGatewayConfig(data.gatewayStateDir).config).port,
  reachable,
  ready: createReadiness({
    stateDir: data.gatewayStateDir,
    settingsFile: data.settingsFile,
    identity: deviceIdentity,
    version: data.version,
  }),
  pollCount: data.pollCount,
  pollIntervalMs: data.pollIntervalMs,
  stopGraceMs: data.stopGraceMs,
});

/** The operations that run npm: they die with their client; a gateway launch does not. */
const INSTALLS: ReadonlySet<OpKind> = new Set(['install', 'install-node', 'self-update']);

interface Op {
  kind: OpKind;
  /** False once the route's client went away: progress and output are no longer sent. */
  streaming: boolean;
  abort: AbortController;
}
const ops = new Map<string, Op>();

function emitterFor(opId: string, op: Op): OpEmitter & { outcome(): OpDone['outcome'] } {
  let outcome: OpDone['outcome'] = 'error';
  return {
    progress: (step, message) => void (op.streaming && server.emit('progress', { opId, step, message })),
    output: (line) => void (op.streaming && server.emit('output', { opId, line })),
    // error and complete always go out: the supervisor acts on them even with no client.
    error: (code, message) => server.emit('error', { opId, code, message }),
    complete: (fields) => {
      outcome = 'complete';
      server.emit('complete', { opId, success: true, ...fields });
    },
    outcome: () => outcome,
  };
}

/** Runs an operation to its end; any throw becomes an INTERNAL error frame. */
async function runOp(opId: string, kind: OpKind, body: (emit: OpEmitter, signal: AbortSignal) => Promise<unknown>): Promise<OpDone> {
  const op: Op = { kind, streaming: true, abort: new AbortController() };
  ops.set(opId, op);
  const emit = emitterFor(opId, op);
  try {
    await body(emit, op.abort.signal);
  } catch (err) {
    emit.error('INTERNAL', messageOf(err));
  } finally {
    ops.delete(opId);
  }
  return { outcome: emit.outcome() };
}

/** Added to the CLI's allowlisted environment (childEnv kind 'gateway-cli'): the state dir, and the port of a gateway svc manages. */
function cliEnv(): Record<string, string | undefined> {
  const port = lifecycle.managedPort();
  return { PATH: cliPath(), OPENCLAW_STATE_DIR: data.gatewayStateDir, ...(port !== null ? { OPENCLAW_GATEWAY_PORT: String(port) } : {}) };
}

async function installedVersion(): Promise<string> {
  cli.invalidate();
  return (await cli.detect({ refresh: true })).version ?? 'unknown';
}

const server = serveChannel(gatewayHostContract, port, {
  status: async () => {
    const [node, gatewayCli, gateway] = await Promise.all([cli.node(), cli.detect(), lifecycle.status()]);
    return { node, gatewayCli, gateway };
  },
  detectCli: ({ refresh }) => cli.detect({ refresh }),
  lifecycleStatus: () => lifecycle.status(),
  start: ({ opId, routing }) => runOp(opId, 'start', (emit) => lifecycle.start(emit, routing === true)),
  restart: ({ opId, routing }) => runOp(opId, 'restart', (emit) => lifecycle.restart(emit, routing === true)),
  stop: () => lifecycle.stop(),
  install: ({ opId }) =>
    runOp(opId, 'install', (emit, signal) =>
      // openclaw's preinstall checks the Node that runs it: the managed one when there is one.
      runGlobalInstall({ spec: data.gatewayPackage, emit, signal, versionAfter: installedVersion, env: { PATH: cliPath() } }),
    ),
  installNode: ({ opId }) =>
    runOp(opId, 'install-node', (emit, signal) =>
      installManagedNode({ svcHome: data.svcHome, emit, signal, requirement: () => cli.requirement(), installed: () => cli.invalidate() }),
    ),
  selfUpdate: ({ opId, restart }) =>
    runOp(opId, 'self-update', async (emit, signal) => {
      const pkg = data.updatePackage;
      // No default package (issue 15 #19): nothing is installed until the user names one.
      if (pkg === null) return emit.error('NOT_CONFIGURED', UPDATE_PACKAGE_UNSET);
      const outcome = await runGlobalInstall({
        spec: updateSpec(pkg),
        emit,
        signal,
        versionAfter: async () => (await latestVersion(data.updateRegistry, pkg)) ?? 'unknown',
      });
      // After the complete frame: the launcher stops this server, so nothing may follow it.
      if (outcome === 'complete' && restart) {
        void restartSvc(data.packageRoot).then((r) => {
          if (!r.ok) console.error(`svc self-update: restart not started: ${r.detail}`);
        });
      }
    }),
  latestVersion: async () => ({ latest: data.updatePackage === null ? null : await latestVersion(data.updateRegistry, data.updatePackage) }),
  approveDevice: () => approveDevice({ cli: cli.resolve(), deviceId: () => deviceIdentity().deviceId, env: cliEnv() }),
  cancel: ({ opId }) => {
    const op = ops.get(opId);
    if (!op) return { cancelled: false };
    op.streaming = false;
    // An install dies with its client (spec); a gateway launch outlives it.
    if (INSTALLS.has(op.kind)) op.abort.abort();
    return { cancelled: true };
  },
  stopWorker: () => {
    for (const op of ops.values()) if (INSTALLS.has(op.kind)) op.abort.abort();
    setImmediate(() => process.exit(0));
    return {};
  },
});

watchChildren({
  started: (pid) => server.emit('childStarted', { pid }),
  ended: (pid) => server.emit('childEnded', { pid }),
});
