// The gateway reconciler (issue 30 item 1, docs/gateway-wiring.md): the one
// place that holds what svc wants in the gateway it is connected to (the
// roster lists, its MCP servers attached per agent, model routing and the
// .env variables they need) and applies it, one round at a time. Rounds
// run on every change that matters: the gateway link connecting (and
// reconnecting), svc starting to listen (the endpoint's port), a write
// through svc's API that changed svc's side (app.ts asks after each one),
// the settings, and a light check every SVC_GATEWAY_WIRING_CHECK_MS for
// what changed in the gateway's files outside svc (an agent a person added).
// Routes only change svc's own state.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTokenStore } from '../../shared/agent-tokens/index.ts';
import type { SettingsTable } from '../../shared/db/settings-table.ts';
import type { Domain } from '../../shared/domain.ts';
import { messageOf } from '../../shared/errors.ts';
import { desiredState, fingerprintOf, isOn, WIRING_KEYS } from '../../shared/gateway-wiring/desired.ts';
import { readGateway, READ_ERRORS, type GatewayRead } from '../../shared/gateway-wiring/gateway-read.ts';
import { createLedgerStore, type WiringLedger } from '../../shared/gateway-wiring/ledger.ts';
import { reconcileOnce, type DesiredState, type ReconcileDeps } from '../../shared/gateway-wiring/reconcile.ts';
import type { ReconcileStatus } from '../../shared/gateway-wiring/view.ts';
import type { Logger } from '../../shared/log.ts';
import type { GatewayReach } from '../../shared/gateway/config-rpc.ts';
import { gatewayPaths } from '../../shared/paths.ts';
import type { Vault } from '../../shared/vault/index.ts';
import type { ModelRoutingService } from './model-routing-service.ts';

/** The gateway applies a patch (debounced, possibly restarting a part of itself) after it answered; runs started meanwhile use the old config. */
export const SETTLE_MS = 10_000;
export const CHECK_MS = 30_000;
export const RETRY_MS = 5 * 60_000;

export interface GatewayWiringService {
  enabled(): boolean;
  attachEnabled(): boolean;
  /** Stores the settings (the caller reconciles). */
  setSettings(p: { enabled?: boolean; attach?: boolean }): void;
  /** Runs a round now (after the one running, if any); resolves with its status. Never rejects. */
  reconcile(reason: string): Promise<ReconcileStatus | null>;
  /** Runs a round when svc's side changed since the last one (or the gateway's files did); else resolves at once. */
  poke(reason: string): Promise<void>;
  last(): ReconcileStatus | null;
  /** When a round last ended with the gateway holding svc's state (ms), or null. */
  lastOkAt(): number | null;
  /** The gateway's state folder as the last round found it (svc's configured one before any). */
  stateDir(): string;
  /** What svc holds of the gateway it wires now: the last round's read, and its ledger. */
  snapshot(): { read: GatewayRead | null; ledger: WiringLedger | null; want: DesiredState };
  /** For the health check: whether svc is meant to wire a gateway now, and what it could not do (names, never values). */
  problems(): { active: boolean; problems: string[] };
  /** The gateway link's state: every connect is a round. */
  gatewayStatus(connected: boolean): void;
  /** svc listens now (its port is known): a round that waited for it runs. */
  listening(): void;
  close(): void;
}

export interface GatewayWiringDeps {
  settingsTable: Pick<SettingsTable, 'get' | 'set'>;
  domain: Pick<Domain, 'agents' | 'teams' | 'lead'>;
  vault: Pick<Vault, 'get' | 'set' | 'delete'>;
  agentTokens: AgentTokenStore;
  modelRouting: ModelRoutingService;
  gateway: GatewayReach;
  /** Whether svc's gateway URL points at this machine. */
  localGateway: () => boolean;
  /** svc's configured gateway state folder. */
  stateDir: string;
  /** svc's own folder (the copy of openclaw.json goes there when the gateway's folder is not writable). */
  svcHome: string;
  boundPort: () => number | null;
  logger: Logger;
  redact: (s: string) => string;
  now?: () => number;
  settleMs?: number;
  checkMs?: number;
  /** Sees the gateway's config each time a round reads it (the gateway's model prices are published from it). */
  onRead?: (config: unknown) => void;
  /** A cheap stamp of what svc's side of the desired state is read from (createSvcSideStamp). */
  svcStamp: () => string;
}

/** The files' identity for the fingerprint: a change made outside svc shows as a new size or time. */
function stampOf(stateDir: string): string {
  const { configFile, envFile } = gatewayPaths(stateDir);
  return [configFile, envFile]
    .map((f) => {
      try {
        const s = statSync(f);
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        // A missing file is a state of its own ("none"), not an error: its appearing later is a change.
        return 'none';
      }
    })
    .join('|');
}

export function createGatewayWiringService(deps: GatewayWiringDeps): GatewayWiringService {
  const { settingsTable, logger, now = Date.now } = deps;
  const ledgers = createLedgerStore(settingsTable, logger);
  const reconcileDeps: ReconcileDeps = {
    gateway: deps.gateway,
    log: logger,
    ledgers,
    routing: deps.modelRouting.planDeps,
    vault: deps.vault,
    backupFallback: join(deps.svcHome, 'gateway', 'openclaw.json.before-svc'),
    bindings: {
      mint: (t) => {
        const { token, binding } = deps.agentTokens.mint('mcp', { agentId: t.svcAgentId, ...(t.teamId ? { teamId: t.teamId } : {}) });
        return { token, id: binding.id };
      },
      verify: (svcAgentId, token) => {
        const b = deps.agentTokens.verify('mcp', token);
        return b && b.agentId === svcAgentId ? b.id : null;
      },
      revoke: (id) => void deps.agentTokens.revoke(id),
    },
  };
  const want = () => desiredState({ domain: deps.domain, settings: settingsTable, routing: () => deps.modelRouting.enabled(), svcPort: deps.boundPort });

  let last: ReconcileStatus | null = null;
  let lastOk: number | null = null;
  let lastRead: GatewayRead | null = null;
  let lastLedger: WiringLedger | null = null;
  // What the last round started from, twice: the cheap stamp of svc's tables and the gateway's files, and the
  // desired state's fingerprint. A write through the API reads the stamp (sub-millisecond); only when that moved
  // is the desired state computed again and compared.
  let lastStamp: string | null = null;
  let lastPrint: string | null = null;
  const stateDir = () => lastRead?.stateDir ?? deps.stateDir;
  const stamp = () => `${deps.svcStamp()}#${deps.boundPort() ?? ''}#${stampOf(stateDir())}`;
  const print = (desired: DesiredState) => `${fingerprintOf(desired)}#${stampOf(stateDir())}`;

  // The last round's deferred step: run when its time comes, or before the next round plans.
  let pending: { cleanup: () => void; timer: NodeJS.Timeout } | null = null;
  const runPending = () => {
    const p = pending;
    pending = null;
    if (!p) return;
    clearTimeout(p.timer);
    try {
      p.cleanup();
    } catch (err) {
      // The next round plans the same removals again from the files.
      logger.warn({ error: deps.redact(messageOf(err)) }, 'retiring what the previous gateway wiring used failed; the next round retries');
    }
  };

  const round = async (reason: string): Promise<ReconcileStatus> => {
    runPending();
    const desired = want();
    lastStamp = stamp();
    lastPrint = print(desired);
    const at = () => new Date(now()).toISOString();
    try {
      const read = await readGateway({ gateway: deps.gateway, stateDir: deps.stateDir, local: deps.localGateway });
      lastRead = read;
      deps.onRead?.(read.config);
      const out = await reconcileOnce(reconcileDeps, read, desired);
      lastLedger = out.ledger;
      if (out.write.via === 'gateway') {
        const timer = setTimeout(runPending, deps.settleMs ?? SETTLE_MS);
        timer.unref();
        pending = { cleanup: out.cleanup, timer };
      } else {
        out.cleanup();
      }
      // What svc just wrote is not a change made outside it.
      lastStamp = stamp();
      lastPrint = print(desired);
      const mismatches = out.write.mismatches.map((p) => p.join('.'));
      const status: ReconcileStatus = {
        at: at(),
        reason,
        ok: mismatches.length === 0,
        error: mismatches.length === 0 ? null : `the gateway did not keep ${mismatches.length} of svc's changes (${mismatches.slice(0, 5).join(', ')})`,
        via: out.write.via,
        changed: { config: out.changed.config, env: out.changed.envNames },
        mismatches,
        parts: out.parts,
        noGateway: false,
      };
      const level = out.changed.config > 0 || out.changed.envNames.length > 0 ? 'info' : 'debug';
      logger[level]({ reason, via: status.via, config: status.changed.config, env: status.changed.env, parts: out.parts }, 'gateway wiring reconciled');
      return status;
    } catch (err) {
      const error = deps.redact(messageOf(err));
      const noGateway = error === READ_ERRORS.noGateway;
      if (noGateway) logger.debug({ reason }, 'no gateway to wire yet');
      else logger.warn({ reason, error }, 'gateway wiring not applied; the gateway keeps what it had');
      return { at: at(), reason, ok: noGateway, error: noGateway ? null : error, via: null, changed: { config: 0, env: [] }, mismatches: [], parts: { attach: null, routing: null }, noGateway };
    }
  };

  // One round at a time; a request while one runs gets the next round (requests that pile up share it).
  let running: Promise<ReconcileStatus> | null = null;
  let queued: { reason: string; promise: Promise<ReconcileStatus | null> } | null = null;
  const reconcile = (reason: string): Promise<ReconcileStatus | null> => {
    if (!running) {
      running = round(reason).then((s) => {
        last = s;
        if (s.ok && !s.noGateway) lastOk = Date.parse(s.at);
        running = null;
        return s;
      });
      return running;
    }
    if (queued) return queued.promise;
    const after = running;
    const promise = after.then(() => {
      const reasonNow = queued?.reason ?? reason;
      queued = null;
      return reconcile(reasonNow);
    });
    queued = { reason, promise };
    return promise;
  };

  let waitingForPort = false;
  let connected = false;
  const connectedRound = (reason: string) => {
    if (deps.boundPort() === null) waitingForPort = true;
    else void reconcile(reason);
  };
  const timer = setInterval(() => {
    if (!connected) return;
    // A round that failed (a gateway that refused, a file svc could not write) is tried again now and then, not every check.
    const failedAt = last && !last.ok ? Date.parse(last.at) : null;
    if (failedAt !== null && now() - failedAt >= RETRY_MS) void reconcile('retry after a failed round');
    else void service.poke('periodic check');
  }, deps.checkMs ?? CHECK_MS);
  timer.unref();

  const service: GatewayWiringService = {
    enabled: () => isOn(settingsTable, WIRING_KEYS.enabled),
    attachEnabled: () => isOn(settingsTable, WIRING_KEYS.attach),
    setSettings(p) {
      if (p.enabled !== undefined) settingsTable.set(WIRING_KEYS.enabled, p.enabled ? 'true' : 'false');
      if (p.attach !== undefined) settingsTable.set(WIRING_KEYS.attach, p.attach ? 'true' : 'false');
    },
    reconcile,
    async poke(reason) {
      if (running) return void (await reconcile(reason));
      const current = stamp();
      if (current === lastStamp) return;
      lastStamp = current;
      if (print(want()) !== lastPrint) await reconcile(reason);
    },
    last: () => last,
    lastOkAt: () => lastOk,
    stateDir,
    snapshot: () => ({ read: lastRead, ledger: lastLedger, want: want() }),
    problems() {
      const active = service.enabled() && (connected || lastRead !== null);
      if (!active || last === null) return { active, problems: [] };
      const out: string[] = [];
      if (last.error) out.push(last.error);
      const want = service.snapshot().want;
      if (last.parts.attach) out.push(`MCP servers not attached: ${last.parts.attach}`);
      else if (want.attach && lastLedger) {
        const attached = new Set(lastLedger.servers.map((s) => s.agent));
        const missing = want.onTeams.map((t) => t.gatewayId).filter((id) => !attached.has(id));
        if (missing.length > 0) out.push(`svc's MCP servers are not attached to ${missing.join(', ')}`);
      }
      if (last.parts.routing && deps.modelRouting.enabled()) out.push(`model routing not applied: ${last.parts.routing}`);
      return { active, problems: out };
    },
    gatewayStatus(isConnected) {
      if (isConnected && !connected) connectedRound('gateway connected');
      connected = isConnected;
    },
    listening() {
      if (!waitingForPort) return;
      waitingForPort = false;
      void reconcile('gateway connected before svc listened');
    },
    close() {
      clearInterval(timer);
      runPending();
    },
  };
  return service;
}
