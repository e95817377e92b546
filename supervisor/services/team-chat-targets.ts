// Where the team-chat service's requests go (docs/architecture.md, "Threads"): the
// team-chat worker when workers run, a host in this thread otherwise. The
// worker is started through the Supervisor, sent `configure` once it says
// `ready` (and again on every reconfigure), and given requests only once it
// took that configuration; a request made while it (re)starts waits for it,
// bounded. The in-thread host is configured on first use.
import { teamChatContract } from '../../shared/channels/team-chat.ts';
import type { EventOf, PayloadOf } from '../../shared/channels/contract.ts';
import type { Config } from '../../shared/config.ts';
import type { Db } from '../../shared/db/open.ts';
import type { DeviceIdentity } from '../../shared/gateway/device-identity.ts';
import type { Logger } from '../../shared/log.ts';
import type { SvcPaths } from '../../shared/paths.ts';
import type { BudgetPolicy } from '../../shared/budgets/rows.ts';
import { createTeamChatHost, type TeamChatHost } from '../../shared/team-chat/host.ts';
import type { BudgetHalt, ChatIngest, ExchangeStart } from '../../shared/team-chat/schemas.ts';
import { workerEntry, type Service, type Supervisor } from './supervision.ts';

export type C = typeof teamChatContract;
type Events = C['events'];
export type TeamChatEmitHandler = <E extends keyof Events & string>(event: E, payload: EventOf<C, E>) => void;
export type ConfigurePayload = PayloadOf<C, 'configure'>;
export type IngestResult = { agentId: string | null; sessionKey: string; entryId: string };
export type StopResult = { aborted: number; released: number; dropped: number; cancelled: number };

/** A request made while the worker is (re)starting waits this long for it, then fails (a 500). */
export const READY_WAIT_MS = 10_000;
/** Ingest answers once the user entry is committed; this covers a long wait for the write lock. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface TargetDeps {
  supervisor: Supervisor;
  config: Config;
  paths: SvcPaths;
  db: Db;
  identity: () => DeviceIdentity;
  logger: Logger;
  /** How the in-thread host is made (tests may hand in another). */
  createHost?: typeof createTeamChatHost;
}

/** Where requests go: the worker or a host in this thread. */
export interface Target {
  configure(): void;
  ingest(p: ChatIngest): Promise<IngestResult>;
  stop(teamId: string): Promise<StopResult>;
  boardChanged(teamId: string, taskId: string): void;
  exchange(p: ExchangeStart): Promise<{ exchangeId: string }>;
  haltForBudget(p: BudgetHalt): Promise<{ halted: boolean }>;
  stats(): Promise<Record<string, number> | null>;
  close(): Promise<void>;
}

/** The budgets' policy as svc's config has it (SVC_BUDGET_WARN_PCT, SVC_BUDGET_HARD_CAP_USD_CENTS). */
export const budgetPolicyOf = (config: Config): BudgetPolicy => ({ warnPct: config.budgetWarnPct, hardCapUsdCents: config.budgetHardCapUsdCents });

export function hereTarget(opts: TargetDeps, emit: TeamChatEmitHandler, configurePayload: () => ConfigurePayload): Target {
  const create = opts.createHost ?? createTeamChatHost;
  // Creating the host runs its recovery (executions left `running` are closed).
  const host: TeamChatHost = create({
    db: opts.db,
    logger: opts.logger.child({ component: 'team-chat-host' }),
    identity: opts.identity,
    version: opts.config.version,
    turnBound: opts.config.teamChatTurnBound,
    idleMs: opts.config.teamChatIdleMs,
    runTimeoutMs: opts.config.teamChatRunTimeoutMs,
    budgetPolicy: budgetPolicyOf(opts.config),
    emit,
  });
  // Configured on first use: an app that never chats (most inject() tests)
  // opens no gateway connection, as the gateway link does not start without workers.
  let configured = false;
  const ready = () => {
    if (!configured) {
      configured = true;
      host.configure(configurePayload());
    }
    return host;
  };
  return {
    configure: () => {
      if (configured) host.configure(configurePayload());
    },
    ingest: async (p) => ready().ingest(p),
    stop: (teamId) => ready().stop({ teamId }),
    boardChanged: (teamId, taskId) => ready().boardChanged({ teamId, taskId }),
    exchange: async (p) => ready().exchange(p),
    // A host never configured runs nothing: there is nothing to halt, and no gateway connection is opened for it.
    haltForBudget: async (p) => (configured ? host.haltForBudget(p) : { halted: false }),
    stats: async () => host.stats(),
    close: () => host.close(),
  };
}

export function workerTarget(
  opts: TargetDeps,
  emit: TeamChatEmitHandler,
  configurePayload: () => ConfigurePayload,
  /** Agents the worker last reported `running`, per team: they get an `error` status when it exits. */
  running: Map<string, Set<string>>,
  log: Logger,
): Target {
  let ready = false;
  /** Counts starts: a `ready` of a thread that has since exited must not mark its successor ready. */
  let generation = 0;
  let waiters: Array<() => void> = [];
  /** Board changes seen while the worker was not ready: handed over once it is. */
  const pendingBoard = new Map<string, { teamId: string; taskId: string }>();
  let worker: Service<C> | null = null;

  const configure = async () => {
    if (!worker) return;
    const r = await worker.request('configure', configurePayload(), { timeoutMs: REQUEST_TIMEOUT_MS });
    if (!r.ok) log.warn({ error: r.error }, 'team-chat worker did not take its configuration; it keeps the previous one');
  };
  const boardChanged = (teamId: string, taskId: string) => {
    if (!worker || !ready) {
      pendingBoard.set(`${teamId}\u0000${taskId}`, { teamId, taskId });
      return;
    }
    void worker.request('boardChanged', { teamId, taskId }, { timeoutMs: REQUEST_TIMEOUT_MS }).then((r) => {
      // The host re-reads the board on the next change of the team; one lost notice delays a delegation, it loses nothing.
      if (!r.ok) log.warn({ error: r.error, teamId, taskId }, 'team-chat worker missed a board change');
    });
  };

  worker = opts.supervisor.start({
    name: 'team-chat',
    entry: workerEntry('team-chat/main'),
    contract: teamChatContract,
    stopMethod: 'shutdown',
    workerData: () => ({
      dbPath: opts.paths.db,
      deviceIdentityFile: opts.paths.deviceIdentityFile,
      version: opts.config.version,
      turnBound: opts.config.teamChatTurnBound,
      idleMs: opts.config.teamChatIdleMs,
      runTimeoutMs: opts.config.teamChatRunTimeoutMs,
      logLevel: opts.config.logLevel,
      budgetWarnPct: budgetPolicyOf(opts.config).warnPct,
      budgetHardCapUsdCents: budgetPolicyOf(opts.config).hardCapUsdCents,
    }),
    onStart: (client) => {
      ready = false;
      const started = ++generation;
      client.on('committed', (p) => emit('committed', p));
      client.on('delta', (p) => emit('delta', p));
      client.on('status', (p) => emit('status', p));
      client.on('ready', () => {
        // The configuration goes first: a request queued behind it never meets a worker without a gateway target.
        void configure().then(() => {
          if (started !== generation) return;
          ready = true;
          for (const wake of waiters.splice(0)) wake();
          const board = [...pendingBoard.values()];
          pendingBoard.clear();
          for (const b of board) boardChanged(b.teamId, b.taskId);
        });
      });
    },
    onExit: () => {
      ready = false;
      generation++;
      // The runs the worker had in flight are over; its recovery on restart records them as errors.
      for (const [teamId, agents] of running) for (const agentId of agents) emit('status', { teamId, agentId, status: 'error' });
      running.clear();
    },
  });

  const whenReady = (): Promise<Service<C>> => {
    const w = worker;
    if (w && ready && w.status().state === 'running') return Promise.resolve(w);
    return new Promise<Service<C>>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters = waiters.filter((x) => x !== wake);
        reject(new Error(`the team-chat worker is not ready (${w?.status().state ?? 'absent'}); try again shortly`));
      }, READY_WAIT_MS);
      const wake = () => {
        clearTimeout(timer);
        resolve(worker as Service<C>);
      };
      waiters.push(wake);
    });
  };
  /** One request once the worker serves; a failure is thrown (the route answers a redacted 500). */
  const call = async <M extends keyof C['requests'] & string>(method: M, payload: PayloadOf<C, M>) => {
    const w = await whenReady();
    const r = await w.request(method, payload, { timeoutMs: REQUEST_TIMEOUT_MS });
    if (!r.ok) throw new Error(`team-chat worker: ${r.error.message}`);
    return r.result;
  };

  return {
    configure: () => void configure(),
    ingest: (p) => call('ingest', p),
    stop: (teamId) => call('stop', { teamId }),
    boardChanged,
    exchange: (p) => call('exchange', p),
    haltForBudget: (p) => call('haltForBudget', p),
    async stats() {
      if (!worker || !ready || worker.status().state !== 'running') return null;
      const r = await worker.request('stats', {}, { timeoutMs: 1000 });
      return r.ok ? r.result : null;
    },
    // supervisor.stopAll() stops the worker (its `shutdown`).
    close: async () => {
      for (const wake of waiters.splice(0)) wake();
    },
  };
}
