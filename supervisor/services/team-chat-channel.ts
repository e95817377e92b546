// Where the team-chat service's requests go (docs/architecture.md,
// "Threads"): the team-chat worker when workers run, a host in this thread
// otherwise (inject() tests). Either way they cross the team-chat channel
// (shared/channels/team-chat.ts) with its validation: the in-thread host is
// served on a MessageChannel with the same handler table as the worker's
// (hostHandlers), so a route test meets the contract a running svc does.
// The worker serves once it said `ready` and took its configuration (the
// Supervisor's readiness, supervision.ts); a request made while it
// (re)starts waits for it, bounded. The in-thread host is configured on
// first use, so an app that never chats opens no gateway connection.
import { MessageChannel } from 'node:worker_threads';
import { createChannelClient, type ChannelClient } from '../../shared/channels/client.ts';
import type { EventOf, PayloadOf, Result, ResultOf } from '../../shared/channels/contract.ts';
import { serveChannel } from '../../shared/channels/server.ts';
import { teamChatContract } from '../../shared/channels/team-chat.ts';
import type { Config } from '../../shared/config.ts';
import type { BudgetPolicy } from '../../shared/budgets/rows.ts';
import type { Db } from '../../shared/db/open.ts';
import type { DeviceIdentity } from '../../shared/gateway/device-identity.ts';
import type { Logger } from '../../shared/log.ts';
import type { SvcPaths } from '../../shared/paths.ts';
import { createTeamChatHost, hostHandlers, type TeamChatHost } from '../../shared/team-chat/host.ts';
import { workerEntry, type Supervisor } from './supervision.ts';

export type C = typeof teamChatContract;
type Events = C['events'];
export type TeamChatEmitHandler = <E extends keyof Events & string>(event: E, payload: EventOf<C, E>) => void;
export type ConfigurePayload = PayloadOf<C, 'configure'>;
/** The requests the service makes; `configure` and `shutdown` are the channel's own. */
export type TeamChatRequest = Exclude<keyof C['requests'] & string, 'configure' | 'shutdown'>;

/** A request made while the worker is (re)starting waits this long for it, then fails (a 500). */
export const READY_WAIT_MS = 10_000;
/** Ingest answers once the user entry is committed; this covers a long wait for the write lock. */
const REQUEST_TIMEOUT_MS = 30_000;
const EVENTS = Object.keys(teamChatContract.events) as Array<keyof Events & string>;

export interface ChannelDeps {
  supervisor: Supervisor;
  config: Config;
  paths: SvcPaths;
  db: Db;
  identity: () => DeviceIdentity;
  logger: Logger;
  /** How the in-thread host is made (tests may hand in another). */
  createHost?: typeof createTeamChatHost;
}

/** Where requests go: the worker or a host in this thread, over the channel either way. */
export interface HostChannel {
  /** Sends the current configuration again (the gateway settings changed). */
  configure(): void;
  /** One request; a failure is thrown (the route answers a redacted 500). */
  call<M extends TeamChatRequest>(method: M, payload: PayloadOf<C, M>): Promise<ResultOf<C, M>>;
  /** A board change, never awaited: held while the worker is not serving, handed over once it is. */
  boardChanged(p: PayloadOf<C, 'boardChanged'>): void;
  /** The host's counters, or null when it does not serve or answer. */
  stats(): Promise<ResultOf<C, 'stats'> | null>;
  close(): Promise<void>;
}

/** The budgets' policy as svc's config has it (SVC_BUDGET_WARN_PCT, SVC_BUDGET_HARD_CAP_USD_CENTS). */
export const budgetPolicyOf = (config: Config): BudgetPolicy => ({ warnPct: config.budgetWarnPct, hardCapUsdCents: config.budgetHardCapUsdCents });

const resultOf = <T>(r: Result<T>, who: string): T => {
  if (!r.ok) throw new Error(`${who}: ${r.error.message}`);
  return r.result;
};

const forwardEvents = (client: ChannelClient<C>, emit: TeamChatEmitHandler) => {
  for (const event of EVENTS) client.on(event, (p) => emit(event, p));
};

export function inThreadChannel(opts: ChannelDeps, emit: TeamChatEmitHandler, configurePayload: () => ConfigurePayload): HostChannel {
  const create = opts.createHost ?? createTeamChatHost;
  const { port1, port2 } = new MessageChannel();
  let host: TeamChatHost | null = null;
  const theHost = () => host as TeamChatHost;
  const server = serveChannel(teamChatContract, port1, { ...hostHandlers(theHost), shutdown: async () => ({}) });
  const client = createChannelClient(teamChatContract, port2, { defaultTimeoutMs: REQUEST_TIMEOUT_MS, onInvalid: (d) => opts.logger.warn(d) });
  forwardEvents(client, emit);
  // The channel keeps the process alive only while a request waits on it: an inject() app left open must not.
  port2.unref();
  const request: typeof client.request = async (method, payload, ropts) => {
    port2.ref();
    try {
      return await client.request(method, payload, ropts);
    } finally {
      if (client.inFlight() === 0) port2.unref();
    }
  };
  // Creating the host runs its recovery (executions left `running` are closed); what it emits crosses the channel.
  host = create({
    db: opts.db,
    logger: opts.logger.child({ component: 'team-chat-host' }),
    identity: opts.identity,
    version: opts.config.version,
    turnBound: opts.config.teamChatTurnBound,
    idleMs: opts.config.teamChatIdleMs,
    runTimeoutMs: opts.config.teamChatRunTimeoutMs,
    reconnectWaitMs: opts.config.teamChatReconnectWaitMs,
    budgetPolicy: budgetPolicyOf(opts.config),
    emit: (event, payload) => server.emit(event, payload),
  });
  let configured: Promise<void> | null = null;
  const configure = async () => void resultOf(await request('configure', configurePayload()), 'team-chat host');
  // A halt or a count needs no gateway: a host never configured has no run to halt.
  const needsGateway = (method: TeamChatRequest) => method !== 'haltForBudget' && method !== 'stats';
  const call: HostChannel['call'] = async (method, payload) => {
    if (needsGateway(method)) await (configured ??= configure());
    return resultOf(await request(method, payload), 'team-chat host');
  };
  return {
    configure: () => {
      if (configured) configured = configured.then(configure);
    },
    call,
    boardChanged: (p) => {
      call('boardChanged', p).catch((err: unknown) => opts.logger.warn({ err, ...p }, 'team-chat host missed a board change'));
    },
    stats: async () => {
      const r = await request('stats', {});
      return r.ok ? r.result : null;
    },
    close: async () => {
      client.dispose();
      server.dispose();
      port1.close();
      await theHost().close();
    },
  };
}

export function workerChannel(
  opts: ChannelDeps,
  emit: TeamChatEmitHandler,
  configurePayload: () => ConfigurePayload,
  /** Agents the worker last reported `running`, per team: they get an `error` status when it exits. */
  running: Map<string, Set<string>>,
  log: Logger,
): HostChannel {
  /** Board changes seen while the worker was not serving: handed over once it is. */
  const pendingBoard = new Map<string, PayloadOf<C, 'boardChanged'>>();
  const sendBoard = (client: Pick<ChannelClient<C>, 'request'>, p: PayloadOf<C, 'boardChanged'>) =>
    void client.request('boardChanged', p, { timeoutMs: REQUEST_TIMEOUT_MS }).then((r) => {
      // The host re-reads the board on the next change of the team; one lost notice delays a delegation, it loses nothing.
      if (!r.ok) log.warn({ error: r.error, ...p }, 'team-chat worker missed a board change');
    });
  const configure = async (client: Pick<ChannelClient<C>, 'request'>) => {
    const r = await client.request('configure', configurePayload(), { timeoutMs: REQUEST_TIMEOUT_MS });
    if (!r.ok) log.warn({ error: r.error }, 'team-chat worker did not take its configuration; it keeps the previous one');
  };

  const worker = opts.supervisor.start({
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
      reconnectWaitMs: opts.config.teamChatReconnectWaitMs,
      logLevel: opts.config.logLevel,
      budgetWarnPct: budgetPolicyOf(opts.config).warnPct,
      budgetHardCapUsdCents: budgetPolicyOf(opts.config).hardCapUsdCents,
    }),
    // The configuration goes first, then the board changes it missed: a request let through after them never meets a worker without its gateway target.
    ready: {
      event: 'ready',
      prepare: async (client) => {
        await configure(client);
        const board = [...pendingBoard.values()];
        pendingBoard.clear();
        for (const b of board) sendBoard(client, b);
      },
    },
    onStart: (client) => forwardEvents(client, emit),
    onExit: () => {
      // The runs the worker had in flight are over; its recovery on restart records them as errors.
      for (const [teamId, agents] of running) for (const agentId of agents) emit('status', { teamId, agentId, status: 'error' });
      running.clear();
    },
  });

  return {
    configure: () => {
      // A worker still starting takes the configuration as it becomes ready (prepare above).
      if (worker.status().state === 'running') void configure(worker);
    },
    async call(method, payload) {
      await worker.whenServing(READY_WAIT_MS);
      return resultOf(await worker.request(method, payload, { timeoutMs: REQUEST_TIMEOUT_MS }), 'team-chat worker');
    },
    boardChanged(p) {
      if (worker.serving()) sendBoard(worker, p);
      else pendingBoard.set(`${p.teamId}\u0000${p.taskId}`, p);
    },
    async stats() {
      if (!worker.serving()) return null;
      const r = await worker.request('stats', {}, { timeoutMs: 1000 });
      return r.ok ? r.result : null;
    },
    // supervisor.stopAll() stops the worker (its `shutdown`); a request still waiting for it is let go then.
    close: async () => undefined,
  };
}
