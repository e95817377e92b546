// The composition root: builds everything the front door needs for one
// process: the database and its stores, the services (services/: the live
// fan-out, the supervised workers, the job pool, the gateway link, settings,
// health, MCP sessions) and the HTTP pieces the routes share (http/: the
// gate, the SSE registry, upgrades, the gateway proxy), all handed to the
// routes as AppDeps. main.ts binds it; tests build it directly.
import { ensurePrivateDir } from '../shared/fs-safe.ts';
import type { Config } from '../shared/config.ts';
import { createChatMessages, type ChatRow } from '../shared/db/chat-messages.ts';
import { checkpointAndClose, openDatabase } from '../shared/db/open.ts';
import { createSettingsTable } from '../shared/db/settings-table.ts';
import { createTx } from '../shared/db/tx.ts';
import { createDomain } from '../shared/domain.ts';
import { memoryStoreFor } from '../shared/memory/index.ts';
import { createEventLog } from '../shared/events/event-log.ts';
import { createEventQueries } from '../shared/events/queries.ts';
import type { EventRow } from '../shared/events/types.ts';
import type { McpProbe } from '../shared/health/types.ts';
import type { Logger } from '../shared/log.ts';
import { svcPaths } from '../shared/paths.ts';
import { createRedactor, isSensitiveKey } from '../shared/redact.ts';
import { readStudioAccessToken } from '../shared/settings/index.ts';
import { createVault } from '../shared/vault/index.ts';
import { loadOrCreateDeviceIdentity, type DeviceIdentity } from '../shared/gateway/device-identity.ts';
import { createBroker } from '../shared/broker/index.ts';
import { tailContract } from '../shared/channels/tail.ts';
import { createAgentTokenStore } from '../shared/agent-tokens/index.ts';
import { createBudgetService } from '../shared/budgets/index.ts';
import { interruptedSpan } from '../shared/model-proxy/records.ts';
import { createModelCalls } from '../shared/model-calls/index.ts';
import { openModelCallLane } from './services/model-call-lane.ts';
import type { AppDeps } from './deps.ts';
import { eventFrame } from './http/event-frames.ts';
import { createGatewayProxy } from './http/gateway-proxy.ts';
import { isOperatorPrincipal } from './http/operator-principal.ts';
import { createGate } from './http/plugins/access-gate.ts';
import { SseRegistry, frameRow } from './http/sse.ts';
import { UpgradeRegistry } from './http/upgrade.ts';
import { startGatewayHost } from './services/gateway-host-service.ts';
import { createGatewayLink } from './services/gateway-link.ts';
import { createHealthService } from './services/health-service.ts';
import { createIngestService } from './services/ingest-service.ts';
import { createMcpHost } from './services/mcp-sessions.ts';
import { createModelRoutingService } from './services/model-routing-service.ts';
import { createGatewayWiringService, type GatewayWiringService } from './services/gateway-wiring-service.ts';
import { createSvcSideStamp } from '../shared/gateway-wiring/desired.ts';
import { isLoopbackHost, wsHostPort } from '../shared/health/probes.ts';
import { createGatewayPricesService } from './services/gateway-prices-service.ts';
import { priceBookFor } from '../shared/pricing/index.ts';
import { startOtelExport } from './services/otel-export.ts';
import { createJobPool } from './services/pool.ts';
import { createSettingsService } from './services/settings-service.ts';
import { StreamHub } from './services/stream-hub.ts';
import { Supervisor, workerEntry, type Service } from './services/supervision.ts';
import { createTeamChatService } from './services/team-chat-service.ts';
import { createWorkboardService } from './services/workboard-service.ts';
import { TeamFrames } from './http/team-stream-hub.ts';

export const CHAT_BATCH = 500;

export interface Runtime {
  deps: AppDeps;
  supervisor: Supervisor;
  tail: Service<typeof tailContract> | null;
  /** Runs the boot probe and caches it. */
  bootProbe(): ReturnType<ReturnType<typeof createHealthService>['boot']>;
  setBoundPort(port: number | null): void;
  /** Stops workers and the pool, checkpoints the WAL, closes the database. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  startWorkers?: boolean;
  mcpProbes?: () => McpProbe[];
}

/** The access-gate token: STUDIO_ACCESS_TOKEN, else settings.json's studioAccessToken. */
export function gateToken(config: Config): string | null {
  return config.accessToken ?? readStudioAccessToken(svcPaths(config).settingsFile);
}

export function createRuntime(config: Config, logger: Logger, opts: RuntimeOptions = {}): Runtime {
  const paths = svcPaths(config);
  // An older state folder may have been created with a looser mode: narrowed on every start.
  ensurePrivateDir(paths.home);
  const startWorkers = opts.startWorkers ?? true;
  const db = openDatabase(paths.db);
  const tx = createTx(db, (err) => logger.error({ err }, 'after-commit hook failed'));

  const vault = createVault({ paths, masterKeyOverride: config.secretsMasterKey });
  const settings = createSettingsService({ settingsFile: paths.settingsFile, gatewayStateDir: config.gatewayStateDir, logger, heldSecretNames: () => vault.list() });
  const accessToken = gateToken(config);
  // Every exact secret in play, for the one redactor.
  // OTLP headers whose names say they are credentials (Authorization, api keys) count as secrets too.
  const otlpSecrets = Object.entries(config.otlpHeaders).filter(([k]) => isSensitiveKey(k)).map(([, v]) => v);
  const redactor = createRedactor(() => [accessToken, settings.resolved().token, config.secretsMasterKey, config.searchApiKey, config.embeddingsApiKey, ...otlpSecrets]);

  const watermarks = new Float64Array(new SharedArrayBuffer(2 * Float64Array.BYTES_PER_ELEMENT));
  const supervisor = new Supervisor(logger);
  let tail: Service<typeof tailContract> | null = null;
  const poke = () => {
    if (!tail) return;
    void tail.request('poke', {}).then((r) => {
      if (!r.ok) logger.debug({ error: r.error }, 'tail poke failed; the next tick delivers');
    });
  };
  const hubs = {
    events: new StreamHub<EventRow>({ table: 'events', cursorOf: (r) => r.seq, frame: eventFrame, watermarks, poke }),
    chat: new StreamHub<ChatRow>({
      table: 'chat',
      cursorOf: (r) => r.id,
      frame: (r) => frameRow(r.id, r.entry),
      watermarks,
      poke,
    }),
  };
  const eventLog = createEventLog({ db, tx, logger, redactor, onCommitted: (rows) => hubs.events.offerCommitted(rows) });
  const chatMessages = createChatMessages(db, tx, (rows) => hubs.chat.offerCommitted(rows));
  // Live delivery starts at the rows that exist now; streams replay older rows from their cursor.
  hubs.events.reset(eventLog.maxSeq());
  hubs.chat.reset(chatMessages.maxId());

  if (startWorkers) {
    tail = supervisor.start({
      name: 'tail',
      entry: workerEntry('tail/main'),
      contract: tailContract,
      stopMethod: 'stop',
      workerData: () => ({ dbPath: paths.db, intervalMs: config.tailIntervalMs, batchSize: CHAT_BATCH, watermarks: watermarks.buffer }),
      onStart: (client) => {
        client.on('events', ({ rows }) => hubs.events.offerTailed(rows));
        client.on('chat', ({ rows }) => hubs.chat.offerTailed(rows));
      },
    });
  }

  let identity: DeviceIdentity | null = null;
  const deviceIdentity = () => (identity ??= loadOrCreateDeviceIdentity(paths.deviceIdentityFile));
  const gatewayLink = createGatewayLink({ settings, identity: deviceIdentity, version: config.version, logger });
  const proxy = createGatewayProxy({ resolved: () => settings.resolved(), identity: deviceIdentity, version: config.version, logger, maxConnections: config.maxProxyConnections });
  if (startWorkers) gatewayLink.start();
  const gatewayHost = startGatewayHost({
    supervisor, config, paths, logger, startWorkers, settings, reconnect: () => gatewayLink.reconfigure(), routing: () => modelRouting.enabled(),
  });

  const ingest = createIngestService({ supervisor, paths, db, tx, eventLog, redactor, events: hubs.events, logger, startWorker: startWorkers });

  const pool = createJobPool();
  let boundPort: number | null = null;
  // Set once deps exist (the MCP host serves from them); the health check asks it lazily.
  let mcpProbes: () => McpProbe[] = opts.mcpProbes ?? (() => []);
  const health = createHealthService(() => ({
    config,
    paths,
    db,
    vault,
    integrityCheck: () => pool.integrityCheck(paths.db),
    gatewayUrl: () => settings.gatewayUrl(),
    gatewayLink: () => gatewayLink.connection.settled(5000),
    apiPort: boundPort,
    mcpProbes: () => mcpProbes(),
    otlpEndpoint: config.otlpTracesEndpoint ?? config.otlpEndpoint,
    budgetPosture: () => budgets.store.posture(),
    modelKeys: () => modelRouting.keysLeftInGateway(),
    gatewayWiring: () => gatewayWiring?.problems() ?? { active: false, problems: [] },
    workers: async () => {
      const [tailStats, ingestStats, teamChatStats] = await Promise.all([
        tail ? tail.request('stats', {}, { timeoutMs: 1000 }) : null,
        ingest.stats(),
        teamChat.stats(),
      ]);
      const stats: Record<string, Record<string, number> | null> = {
        tail: tailStats?.ok ? tailStats.result : null,
        ingest: ingestStats,
        'team-chat': teamChatStats,
      };
      return supervisor.statuses().map((w) => (stats[w.name] ? { ...w, stats: stats[w.name] as Record<string, number> } : w));
    },
  }));

  const settingsTable = createSettingsTable(db);
  const agentTokens = createAgentTokenStore(db);
  const gatewayCall = (method: string, params: unknown) => gatewayLink.call(method, params, { timeoutMs: 15_000, waitMs: 0 });
  const gatewayConnected = () => gatewayLink.status().state === 'connected';
  // Built once the domain exists (below); the routing view and the prices read the gateway's files where it found them.
  let gatewayWiring: GatewayWiringService | null = null;
  const gatewayStateDir = () => gatewayWiring?.stateDir() ?? config.gatewayStateDir;
  const lastWiring = () => gatewayWiring?.last() ?? null;
  const modelRouting = createModelRoutingService({
    stateDir: gatewayStateDir,
    settingsTable,
    vault,
    agentTokens,
    logger,
    redact: (s) => redactor.text(s),
    gateway: { connected: gatewayConnected, call: gatewayCall },
    boundPort: () => boundPort,
    lastSync: () => {
      const l = lastWiring();
      return l && { at: l.at, ok: l.ok && l.parts.routing === null, error: l.error ?? l.parts.routing };
    },
  });
  // The gateway's configured model prices, published for every thread's price book (shared/pricing).
  const gatewayPrices = createGatewayPricesService({
    stateDir: gatewayStateDir, settingsTable, book: priceBookFor(db), logger, gateway: { connected: gatewayConnected, call: gatewayCall },
  });
  gatewayLink.connection.onStatus((st) => gatewayPrices.gatewayStatus(st.state === 'connected'));
  // A model call in flight when svc last stopped is over: its row is closed at its estimate.
  const modelCalls = createModelCalls(db);
  const interrupted = tx.run(() => {
    const at = Date.now();
    const rows = modelCalls.recoverOpen(at);
    // Each keeps its span: a trace shows the call, ended by the restart.
    if (rows.length > 0) eventLog.appendMany(rows.flatMap((r) => interruptedSpan(r, at)));
    return rows.length;
  });
  if (interrupted > 0) logger.warn({ interrupted }, 'model calls open at the last stop marked interrupted');
  // Budgets: the hard cap's global row exists from the first boot; a reservation a crash left open is
  // settled at its estimate (the provider may have billed the call), so none stays open across a restart.
  const budgets = createBudgetService({ db, tx, config });
  budgets.store.ensureHardCapRow();
  const recoveredCalls = budgets.ledger.recoverOpen();
  if (recoveredCalls > 0) logger.warn({ recoveredCalls }, 'budget reservations open at the last stop settled at their estimates');
  // Only this process's operator principals (the HTTP routes') resolve approvals.
  const broker = createBroker({ db, tx, config, paths, logger, redactor, eventLog, isOperator: isOperatorPrincipal });
  // The activity summary reads saved memory; MCP sessions on this connection share the store.
  const domain = createDomain({ db, tx, settingsTable, eventLog, logger, memory: memoryStoreFor({ db, tx, logger, config }) });
  // The model endpoint writes on its own connection, which leaves checkpoints to the tail worker while it runs.
  const modelLane = openModelCallLane({
    dbPath: paths.db, config, logger, redactor, ownCheckpoints: !startWorkers, onEvents: (rows) => hubs.events.offerCommitted(rows),
  });
  const teamChat = createTeamChatService({
    supervisor,
    config,
    paths,
    db,
    domain,
    hubs,
    frames: new TeamFrames(),
    settings,
    settingsTable,
    gatewayLink,
    redactor,
    identity: deviceIdentity,
    logger,
    startWorker: startWorkers,
  });
  const wiring = createGatewayWiringService({
    settingsTable,
    domain,
    vault,
    agentTokens,
    modelRouting,
    // config.patch answers once the gateway has applied the write (its reloads included): a busy gateway takes longer.
    gateway: { connected: gatewayConnected, call: (method, params) => gatewayLink.call(method, params, { timeoutMs: 120_000, waitMs: 0 }) },
    localGateway: () => {
      const hp = wsHostPort(settings.gatewayUrl());
      return hp !== null && isLoopbackHost(hp.host);
    },
    stateDir: config.gatewayStateDir,
    svcHome: paths.home,
    boundPort: () => boundPort,
    onRead: (c) => gatewayPrices.refresh(c),
    svcStamp: createSvcSideStamp(db),
    logger,
    redact: (s) => redactor.text(s),
  });
  gatewayWiring = wiring;
  gatewayLink.connection.onStatus((st) => wiring.gatewayStatus(st.state === 'connected'));
  const base: Omit<AppDeps, 'mcp'> = {
    config,
    logger,
    redactor,
    paths,
    db,
    tx,
    settingsTable,
    eventLog,
    ingest,
    eventQueries: createEventQueries(db),
    chatMessages,
    domain,
    hubs,
    sse: new SseRegistry({ maxStreams: config.maxStreams }),
    settings,
    health,
    gate: createGate(accessToken, logger),
    upgrades: new UpgradeRegistry(),
    boundPort: () => boundPort,
    pool,
    vault,
    deviceIdentity,
    gatewayLink,
    gatewayHost,
    broker,
    budgets,
    agentTokens,
    modelRouting,
    teamChat,
    workboard: createWorkboardService({ connection: gatewayLink.connection, domain, logger }),
    gatewayWiring: wiring,
    modelCalls,
    modelLane,
    gatewayPrices,
  };
  const deps: AppDeps = { ...base, mcp: createMcpHost(base) };
  if (!opts.mcpProbes) mcpProbes = () => deps.mcp.probes();

  deps.upgrades.setGatewayHandler(proxy.handle);
  const otel = startOtelExport({ config, logger, events: hubs.events, prices: gatewayPrices.book });

  return {
    deps,
    supervisor,
    tail,
    bootProbe: () => health.boot(),
    setBoundPort: (p) => {
      boundPort = p;
      if (p !== null) wiring.listening();
    },
    async close() {
      wiring.close();
      deps.sse.closeAll();
      proxy.closeAll();
      await teamChat.close();
      await deps.mcp.close();
      await gatewayLink.stop();
      await otel.shutdown();
      await supervisor.stopAll();
      await pool.destroy();
      modelLane.close();
      checkpointAndClose(db);
    },
  };
}
