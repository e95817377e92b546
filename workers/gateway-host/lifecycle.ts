// The gateway process (spec "Gateway process"): start, stop, restart and
// status of the gateway svc launches. The child is detached (its own process
// group) and writes straight into gateway.log, so it outlives the route's
// client and svc itself; its PID file says which process svc manages. A
// launch already in flight (alive, not yet bound) is joined, never doubled.
// The PID file is trusted only while its process still has the start time
// and command line svc recorded (issue 15 #16): a pid the OS gave to another
// process is never signalled. The gateway renames itself while it starts
// (process.title `openclaw-gateway`), which changes its command line as the
// OS reports it, so the record is written at spawn and rewritten once the
// launch has settled; until then this worker trusts the child it holds.
// The gateway's environment is the allowlist of shared/config.ts childEnv
// (kind 'gateway'): never svc's own secrets, which an agent's exec could read.
import { mkdirSync, openSync, closeSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { execa, type Options } from 'execa';
import { childEnv } from '../../shared/config.ts';
import { isAlive } from '../../shared/launcher/stop.ts';
import { pidFromPort } from '../../shared/launcher/pid-from-port.ts';
import type { LifecycleStatus, GatewayStopResult } from '../../shared/channels/gateway-host.ts';
import { fileSize, tailLog } from './log-tail.ts';
import { matchesProcess, trustedRecord, removePidFile, writePidFile, type PidRecord } from './pid-file.ts';
import { processIdentity, type ProcIdentity } from './proc-identity.ts';
import { IS_WINDOWS, platformSpawnOptions } from './proc.ts';
import { messageOf } from '../../shared/errors.ts';

export const DEFAULT_GATEWAY_PORT = 18789;
const EXIT_WATCH_MS = 100;

export interface OpEmitter {
  progress(step: string, message: string): void;
  output(line: string): void;
  error(code: string, message: string): void;
  complete(fields: { pid?: number; port?: number; message?: string; version?: string }): void;
}

export interface LifecycleDeps {
  /** The gateway's PATH (the Node svc installed for it first, issue 30 #6); undefined: svc's own. */
  path?: () => string | undefined;
  pidFile: string;
  logFile: string;
  /** The gateway's state directory: its cwd and OPENCLAW_STATE_DIR. */
  stateDir: string;
  /** The gateway CLI to run, null when not installed. */
  cli: () => string | null;
  /** gateway.port from openclaw.json, null when absent. */
  configuredPort: () => number | null;
  /** Something listens on the port. */
  reachable: (port: number) => Promise<boolean>;
  /** The gateway answers a connect (not just the port): readiness. */
  ready: (port: number) => Promise<boolean>;
  pollCount: number;
  pollIntervalMs: number;
  stopGraceMs: number;
  /** Who a process is (default: the OS's answer, proc-identity.ts); injected by tests. */
  identify?: (pid: number) => ProcIdentity | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createLifecycle(deps: LifecycleDeps) {
  /** Exit of children spawned by this worker (isAlive cannot tell an unreaped child from a live one). */
  const exits = new Map<number, { code: number | null }>();
  /** Gateways this worker spawned and has not seen exit: its own children, so their pid cannot belong to anyone else. */
  const launched = new Map<number, { startedAt: number }>();
  const identify = deps.identify ?? processIdentity;
  let spawnLock: Promise<unknown> = Promise.resolve();

  const gone = (pid: number) => exits.has(pid) || !isAlive(pid);
  const trusted = (rec: PidRecord) => (launched.has(rec.pid) && !exits.has(rec.pid)) || matchesProcess(rec, identify);
  /** The managed gateway's record, or null (a stale or untrusted file is dropped). */
  const record = () => trustedRecord(deps.pidFile, trusted);
  const portNow = () => record()?.port ?? deps.configuredPort() ?? DEFAULT_GATEWAY_PORT;

  /** Records the process as the OS reports it now; false when it cannot say (the gateway is then not managed through the file). */
  function recordIdentity(pid: number, port: number, startedAt: number): boolean {
    const id = identify(pid);
    if (!id) return false;
    writePidFile(deps.pidFile, { pid, port, startedAt, procStart: id.start, cmdline: id.cmdline });
    return true;
  }

  async function status(): Promise<LifecycleStatus> {
    const rec = record();
    const port = rec?.port ?? deps.configuredPort() ?? DEFAULT_GATEWAY_PORT;
    const reachable = await deps.reachable(port);
    return {
      running: rec !== null || reachable,
      port,
      pid: rec?.pid ?? null,
      managedByService: rec !== null,
      uptimeMs: rec ? Math.max(0, Date.now() - rec.startedAt) : null,
    };
  }

  async function spawnGateway(cli: string, port: number, emit: OpEmitter, routed: boolean): Promise<number | null> {
    mkdirSync(dirname(deps.logFile), { recursive: true, mode: 0o700 });
    // Its cwd: a state dir that does not exist yet would fail the spawn itself.
    mkdirSync(deps.stateDir, { recursive: true, mode: 0o700 });
    const fd = openSync(deps.logFile, 'a', 0o600);
    try {
      writeSync(fd, `--- svc: starting gateway on port ${port} at ${new Date().toISOString()} ---\n`);
      // The log file's descriptor goes straight to spawn (execa passes a
      // single integer through natively; its types only list 3-9): no pipe
      // through svc, so the gateway keeps its stdout when svc exits.
      const logFd = fd as 3;
      const options = {
        ...platformSpawnOptions,
        // The allowlist for the gateway plus the state dir, so svc and the
        // gateway agree on files. OPENCLAW_NO_RESPAWN: a full restart stays
        // in the gateway's process. Without it, earlier releases in svc's
        // range restart by spawning a successor with a fresh pid and
        // exiting (2026.9 still does after a self-update), and svc, the
        // gateway's supervisor, would lose the process it manages.
        // While svc routes its model calls, the gateway gets no provider key from svc's environment (it has no use for one).
        env: childEnv({ OPENCLAW_STATE_DIR: deps.stateDir, OPENCLAW_NO_RESPAWN: '1', ...(deps.path ? { PATH: deps.path() } : {}) }, routed ? 'gateway-routed' : 'gateway'),
        extendEnv: false,
        cwd: deps.stateDir,
        detached: true,
        cleanup: false,
        stdin: 'ignore',
        stdout: logFd,
        stderr: logFd,
        reject: false,
        buffer: false,
      } satisfies Options;
      const child = execa(cli, ['gateway', 'run', '--port', String(port), '--bind', 'loopback'], options);
      const pid = child.pid;
      if (pid === undefined) {
        // No pid: the spawn failed; execa reports why on the promise, which
        // is awaited so the error frame goes out before the operation ends.
        const r = await child;
        emit.error('SPAWN_ERROR', `Failed to start gateway: ${r.originalMessage ?? r.shortMessage ?? 'spawn failed'}`);
        return null;
      }
      const startedAt = Date.now();
      launched.set(pid, { startedAt });
      void child.then((r) => {
        exits.set(pid, { code: r.exitCode ?? null });
        launched.delete(pid);
      });
      child.unref();
      // No identity: the process is already gone (waitReady reports its
      // exit), or it is in the middle of its exec (the OS shows no command
      // line for that instant). No record is written now; this worker still
      // knows it as its child, and settleRecord writes it once it is ready.
      recordIdentity(pid, port, startedAt);
      return pid;
    } finally {
      // The child holds its own copy of the descriptor.
      closeSync(fd);
    }
  }

  /**
   * After a launch this worker holds: the gateway has renamed itself by now
   * (it does so before it listens), so its record is rewritten with the
   * command line the OS reports from here on, the one a later svc compares.
   */
  function settleRecord(pid: number, port: number): void {
    const own = launched.get(pid);
    if (!own || exits.has(pid)) return;
    const rec = trustedRecord(deps.pidFile, trusted);
    // No file: the first identity read fell on the gateway's exec; write it now.
    if (rec === null) recordIdentity(pid, port, own.startedAt);
    else if (rec.pid === pid) recordIdentity(pid, rec.port, rec.startedAt);
  }

  type Outcome = { type: 'complete'; pid: number; port: number } | { type: 'error'; code: string; message: string };

  /** Polls until the gateway answers, the process dies, or the polls run out. */
  async function waitReady(pid: number, port: number, emit: OpEmitter): Promise<Outcome> {
    for (let n = 1; n <= deps.pollCount; n++) {
      emit.progress('waiting', `Waiting for gateway... (${n}/${deps.pollCount})`);
      if (gone(pid)) {
        removePidFile(deps.pidFile);
        const code = exits.get(pid)?.code;
        const how = code !== undefined && code !== null ? ` with code ${code}` : '';
        return { type: 'error', code: 'SPAWN_ERROR', message: `Gateway exited${how} before it was ready` };
      }
      const t0 = Date.now();
      if (await deps.ready(port)) return { type: 'complete', pid, port };
      await sleep(Math.max(0, deps.pollIntervalMs - (Date.now() - t0)));
    }
    const seconds = Math.round((deps.pollCount * deps.pollIntervalMs) / 1000);
    return { type: 'error', code: 'TIMEOUT', message: `Gateway did not become ready within ${seconds} s` };
  }

  async function start(emit: OpEmitter, routed = false): Promise<void> {
    // Only the decision (join, already running, spawn) is serialised: two
    // starts at once must not spawn two gateways.
    const decided = spawnLock.then(async (): Promise<{ pid: number; port: number; offset: number } | null> => {
      const rec = record();
      const port = rec?.port ?? deps.configuredPort() ?? DEFAULT_GATEWAY_PORT;
      if (await deps.reachable(port)) {
        emit.complete({ port, message: 'Gateway already running' });
        return null;
      }
      const offset = fileSize(deps.logFile);
      if (rec) {
        emit.progress('starting', `Joining gateway launch (pid ${rec.pid}, port ${port})`);
        return { pid: rec.pid, port, offset };
      }
      const cli = deps.cli();
      if (!cli) {
        emit.error('NOT_INSTALLED', 'gateway CLI not installed');
        return null;
      }
      emit.progress('starting', `Starting gateway on port ${port}`);
      let pid: number | null;
      try {
        pid = await spawnGateway(cli, port, emit, routed);
      } catch (err) {
        emit.error('SPAWN_THROW', `Failed to start gateway: ${messageOf(err)}`);
        return null;
      }
      return pid === null ? null : { pid, port, offset };
    });
    spawnLock = decided.catch(() => undefined);
    const launch = await decided;
    if (!launch) return;
    const tail = tailLog(deps.logFile, launch.offset, (line) => emit.output(line));
    let outcome: Outcome;
    try {
      outcome = await waitReady(launch.pid, launch.port, emit);
    } finally {
      // The last lines go out before the last frame.
      tail.stop();
    }
    settleRecord(launch.pid, launch.port);
    if (outcome.type === 'complete') emit.complete({ pid: outcome.pid, port: outcome.port });
    else emit.error(outcome.code, outcome.message);
  }

  function signal(target: number, sig: NodeJS.Signals | 0): boolean {
    try {
      process.kill(target, sig);
      return true;
    } catch (err) {
      // ESRCH: already gone, which is the goal; EPERM: not ours to stop.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ESRCH' && code !== 'EPERM') throw err;
      return false;
    }
  }

  /** A process group still has members (POSIX); on Windows only the pid counts. */
  const groupAlive = (pid: number) => !IS_WINDOWS && signal(-pid, 0);

  async function waitGone(pids: number[], withinMs: number): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    while (pids.some((p) => !gone(p))) {
      if (Date.now() >= deadline) return false;
      await sleep(EXIT_WATCH_MS);
    }
    return true;
  }

  /** SIGTERM, then SIGKILL after the grace to whatever is left (the group when `group`). */
  async function terminate(pids: number[], group: boolean): Promise<void> {
    for (const pid of pids) if (!(group && !IS_WINDOWS && signal(-pid, 'SIGTERM'))) signal(pid, 'SIGTERM');
    if (await waitGone(pids, deps.stopGraceMs) && !(group && pids.some(groupAlive))) return;
    for (const pid of pids) {
      if (group && !IS_WINDOWS) signal(-pid, 'SIGKILL');
      signal(pid, 'SIGKILL');
    }
    await waitGone(pids, 2000);
  }

  async function stop(): Promise<GatewayStopResult> {
    const rec = record();
    if (rec) {
      await terminate([rec.pid], true);
      removePidFile(deps.pidFile);
      return { ok: true, stopped: true };
    }
    // Not launched by svc but listening on the gateway's port: the spec counts it as running.
    const port = deps.configuredPort() ?? DEFAULT_GATEWAY_PORT;
    if (await deps.reachable(port)) {
      const owner = pidFromPort(port);
      const pids = owner.kind === 'found' ? owner.pids.filter((p) => p !== process.pid) : [];
      if (pids.length > 0) {
        await terminate(pids, false);
        return { ok: true, stopped: true };
      }
    }
    return { ok: false, message: 'No gateway process found' };
  }

  async function restart(emit: OpEmitter, routed = false): Promise<void> {
    emit.progress('stopping', 'Stopping gateway...');
    await stop();
    await start(emit, routed);
  }

  /** The port of the gateway svc manages (trusted record), or null. */
  const managedPort = () => record()?.port ?? null;

  return { status, start, stop, restart, port: portNow, managedPort };
}
export type Lifecycle = ReturnType<typeof createLifecycle>;
