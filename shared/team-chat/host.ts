// The team-chat host (docs/architecture.md, "Threads"): one orchestrator per
// team, created on demand and evicted after `idleMs` without a run, over its
// own stores on the database it is given and its own gateway connection. The
// team-chat worker serves it on its channel (workers/team-chat/main.ts);
// without a worker the supervisor calls it in its own thread. Its methods
// mirror the channel's requests; what it commits and streams goes out through
// `emit`. Creating it runs recovery: no executions row is left `running`.
// Native delegations the gateway runs by itself (issue 23) are followed on
// the same connection by the spawn tracker (spawns.ts); a stop reaches them
// too.
import { createDbVersion } from '../db/db-version.ts';
import type { Db } from '../db/open.ts';
import { createChatMessages } from '../db/chat-messages.ts';
import { createSettingsTable } from '../db/settings-table.ts';
import { createTx } from '../db/tx.ts';
import { createCostRecords } from '../costs/index.ts';
import { createDomain } from '../domain.ts';
import { createEventLog } from '../events/event-log.ts';
import type { GatewaySession } from '../gateway/client.ts';
import { createGatewayConnection, type GatewayConnection, type TargetFn } from '../gateway/connection.ts';
import type { DeviceIdentity } from '../gateway/device-identity.ts';
import type { Logger } from '../log.ts';
import { createTeamChatPosts } from './room/posts.ts';
import { memoryStoreFor } from '../memory/index.ts';
import { createRedactor } from '../redact.ts';
import type { BudgetPolicy } from '../budgets/rows.ts';
import type { BudgetGate } from './budgets/budget-halt.ts';
import { createBudgetGate } from './budgets/budget-gate.ts';
import { followCalls, type CallMeter } from './budgets/call-meter.ts';
import type { ConfigurePayload, GatewayPort, TeamChatContext, TeamChatEmit } from './context.ts';
import { createEntryWriter } from './entries.ts';
import { createExecutions } from './runs/executions.ts';
import { createOrchestrator, type Orchestrator } from './orchestrator.ts';
import { recoverRunning } from './recovery.ts';
import { createSpawnTracker } from './spawns/spawns.ts';

import type { TeamChatHost } from './host-api.ts';

export type { TeamChatEmit } from './context.ts';
export { hostHandlers, type TeamChatHost } from './host-api.ts';

export type ConnectFn = (target: TargetFn, logger: Logger) => GatewayConnection;

export interface TeamChatHostOptions {
  db: Db;
  logger: Logger;
  identity: () => DeviceIdentity;
  version: string;
  turnBound: number;
  idleMs: number;
  runTimeoutMs: number;
  emit: TeamChatEmit;
  /** Injected clock: eviction and every timestamp the host writes. */
  now?: () => number;
  /** How the gateway connection is made (unit tests pass a stub for failure paths). */
  connect?: ConnectFn;
  /** How long a failed send waits for the connection before its one retry (config.teamChatReconnectWaitMs). */
  reconnectWaitMs: number;
  /** The budgets' warning threshold and hard cap, as the supervisor's config has them (default: 80 %, none). */
  budgetPolicy?: BudgetPolicy;
  /** The budgets runs spend under (default: the ledger on `db`); null: none (unit tests). */
  budgets?: BudgetGate | null;
}

export const DEFAULT_BUDGET_POLICY: BudgetPolicy = Object.freeze({ warnPct: 80, hardCapUsdCents: null });

/** How often idle orchestrators are looked for (at most; a short idleMs looks more often). */
const SWEEP_EVERY_MS = 60_000;

const defaultConnect: ConnectFn = (target, logger) => createGatewayConnection({ target, logger });

export function createTeamChatHost(opts: TeamChatHostOptions): TeamChatHost {
  const { db, emit } = opts;
  const now = opts.now ?? Date.now;
  const logger = opts.logger.child({ component: 'team-chat' });
  let secrets: readonly string[] = [];
  let target: ConfigurePayload['gateway'] = null;
  let started = false;
  let closed = false;

  const redactor = createRedactor(() => secrets);
  const tx = createTx(db, (err) => logger.error({ err }, 'after-commit hook failed'));
  // Every row the host commits goes out at commit time, in commit order.
  const eventLog = createEventLog({ db, tx, logger, redactor, now, onCommitted: (rows) => emit('committed', { chat: [], events: rows }) });
  const chat = createChatMessages(db, tx, (rows) => emit('committed', { chat: rows, events: [] }), now);
  // The activity summary's saved-memory section reads rows only: no embedding provider is needed for it.
  const memory = memoryStoreFor({ db, tx, logger, embedder: null, now });
  const domain = createDomain({ db, tx, settingsTable: createSettingsTable(db, now), eventLog, logger, memory, now });
  const dbVersion = createDbVersion(db, (err) => logger.warn({ err }, 'WAL index not readable; team chat checks the database version by query'));

  const connection = (opts.connect ?? defaultConnect)(
    () => (target && target.url ? { url: target.url, token: target.token, identity: opts.identity(), version: opts.version } : null),
    logger,
  );
  const waiters = new Set<() => void>();
  /** Sessions whose turn the connection cut (GatewayPort.cutOff): reset once connected, before waiters send. */
  const cutOff = new Set<string>();
  const resetCutOff = (): Promise<void> => {
    const keys = [...cutOff];
    cutOff.clear();
    return Promise.all(
      keys.map((key) =>
        connection.request('sessions.reset', { key }, { timeoutMs: 10_000, waitMs: 0 }).then(
          () => logger.info({ sessionKey: key }, 'team chat: reset a session whose turn a lost connection cut'),
          (err: unknown) => {
            // The session may be gone or the gateway down again: the next send finds out and reports it.
            logger.warn({ err: String(err), sessionKey: key }, 'team chat: reset of a cut-off session failed');
          },
        ),
      ),
    ).then(() => undefined);
  };
  const live = (): GatewaySession | null => {
    const s = connection.session();
    return s && !s.closed ? s : null;
  };
  let resets = 0;
  /** The session runs may send on: none while cut-off sessions wait for their reset. */
  const usable = (): GatewaySession | null => (cutOff.size > 0 || resets > 0 ? null : live());
  const wakeAll = () => {
    for (const wake of [...waiters]) wake();
  };
  /** Resets the cut-off sessions (when connected), then lets the waiting sends go. */
  const afterConnect = () => {
    if (cutOff.size === 0 || !live()) return wakeAll();
    resets++;
    void resetCutOff().finally(() => {
      resets--;
      wakeAll();
    });
  };
  const gateway: GatewayPort = {
    session: usable,
    cutOff(key) {
      cutOff.add(key);
      // Normally the connection is down now and the reset waits for it; a connection already back resets at once.
      if (live() && resets === 0) afterConnect();
    },
    waitSession(ms, signal) {
      const s = usable();
      if (s || closed || signal?.aborted) return Promise.resolve(s);
      // A gateway that came back during a long backoff is tried now, not after the rest of the delay.
      connection.nudge();
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve(usable());
        };
        const timer = setTimeout(wake, ms);
        waiters.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    },
    request: (method, params, ropts) => connection.request(method, params, ropts),
  };

  const ctx: TeamChatContext = {
    db,
    tx,
    logger,
    now,
    domain,
    eventLog,
    chat,
    entries: createEntryWriter(chat, now),
    executions: createExecutions(db),
    dbVersion,
    costs: createCostRecords({ db, tx, agents: domain.agents, now }),
    posts: createTeamChatPosts({ db, tx, eventLog, now }),
    gateway,
    redactor,
    emit,
    budgets:
      opts.budgets === undefined
        ? createBudgetGate({ db, tx, eventLog, now, policy: opts.budgetPolicy ?? DEFAULT_BUDGET_POLICY })
        : opts.budgets,
    takeMetered: (runId) => meter.take(runId),
    turnBound: opts.turnBound,
    runTimeoutMs: opts.runTimeoutMs,
    reconnectWaitMs: opts.reconnectWaitMs,
    closed: () => closed,
  };

  // Rows left `running` by a process that is gone are closed before anything else happens.
  let toAbort = recoverRunning(ctx);
  connection.onStatus((s) => {
    if (s.state !== 'connected') return;
    afterConnect();
    const abort = toAbort;
    toAbort = [];
    for (const r of abort) {
      connection.request('chat.abort', { sessionKey: r.gatewaySessionKey, runId: r.runId }, { timeoutMs: 5000, waitMs: 0 }).catch((err: unknown) => {
        // Best effort: the row is closed already; a run the gateway no longer knows has nothing to abort.
        logger.warn({ err: String(err), runId: r.runId }, 'team chat: abort of an interrupted run failed');
      });
    }
  });

  const spawns = createSpawnTracker(ctx, {
    on: (event, handler) => connection.on(event, handler),
    onStatus: (handler) => connection.onStatus(handler),
    admit: (teamId, p) => orchestrator(teamId).admitSpawn(p),
  });

  // Unrouted model calls are spent into the budgets as each ends; a pause halts the run after that call.
  const meter: CallMeter = followCalls(ctx, connection, (key, runId) => {
    for (const o of orchestrators.values()) {
      const t = o.meterTarget(key);
      if (t) return t;
    }
    return spawns.meterTarget(runId);
  });

  const orchestrators = new Map<string, Orchestrator>();
  const orchestrator = (teamId: string): Orchestrator => {
    let o = orchestrators.get(teamId);
    if (!o) {
      o = createOrchestrator(ctx, teamId);
      orchestrators.set(teamId, o);
    }
    return o;
  };
  /** Drops orchestrators with nothing in flight or queued for idleMs (on the injected clock). */
  let evictedRuns = 0;
  const sweep = () => {
    const t = now();
    for (const [teamId, o] of orchestrators) {
      if (!o.idle() || t - o.lastActive() < opts.idleMs) continue;
      evictedRuns += o.counts().runs;
      orchestrators.delete(teamId);
    }
  };
  const sweeper = setInterval(sweep, Math.max(1000, Math.min(opts.idleMs, SWEEP_EVERY_MS)));
  sweeper.unref();

  return {
    configure(p) {
      secrets = p.secrets;
      const changed = target?.url !== p.gateway?.url || target?.token !== p.gateway?.token;
      target = p.gateway;
      if (closed) return {};
      if (!started) {
        started = true;
        connection.start();
      } else if (changed) {
        connection.reconfigure();
      }
      return {};
    },
    ingest: (p) => orchestrator(p.teamId).ingest(p),
    async stop({ teamId }) {
      // An evicted (or never created) orchestrator has nothing to stop: all zeros, no new orchestrator.
      sweep();
      const o = orchestrators.get(teamId);
      const [own, native] = await Promise.all([o ? o.stop() : { aborted: 0, released: 0, dropped: 0, cancelled: 0 }, spawns.stopTeam(teamId)]);
      return { ...own, aborted: own.aborted + native.aborted, cancelled: own.cancelled + native.cancelled };
    },
    boardChanged: ({ teamId }) => {
      orchestrator(teamId).boardChanged();
      return {};
    },
    exchange: (p) => orchestrator(p.teamId).exchange(p),
    haltForBudget(p) {
      // The session key names the team, but only a live orchestrator can have the run: none is created for a halt.
      for (const o of orchestrators.values()) if (o.haltForBudget(p)) return { halted: true };
      // A native delegation the gateway runs by itself (a spawned child, an announce run).
      return { halted: spawns.haltForBudget(p) };
    },
    stats() {
      sweep();
      const out = { orchestrators: orchestrators.size, running: spawns.running(), queued: 0, runs: evictedRuns };
      for (const o of orchestrators.values()) {
        const c = o.counts();
        out.running += c.running;
        out.queued += c.queued;
        out.runs += c.runs;
      }
      return out;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      spawns.close();
      for (const wake of [...waiters]) wake();
      await connection.stop();
      dbVersion.close();
    },
  };
}
