// What routes are given: built once by runtime.ts (or by a test), passed
// down. A leaf: it only names types; each interface lives in the module that
// implements it, and none of those modules imports this file back (an
// import cycle would make the seam hard to read; test/unit/import-cycles.test.ts).
import type { AgentTokenStore } from '../shared/agent-tokens/index.ts';
import type { Broker } from '../shared/broker/index.ts';
import type { BudgetService } from '../shared/budgets/index.ts';
import type { Config } from '../shared/config.ts';
import type { ChatMessages, ChatRow } from '../shared/db/chat-messages.ts';
import type { Db } from '../shared/db/open.ts';
import type { SettingsTable } from '../shared/db/settings-table.ts';
import type { Tx } from '../shared/db/tx.ts';
import type { Domain } from '../shared/domain.ts';
import type { EventLog } from '../shared/events/event-log.ts';
import type { EventQueries } from '../shared/events/queries.ts';
import type { EventRow } from '../shared/events/types.ts';
import type { DeviceIdentity } from '../shared/gateway/device-identity.ts';
import type { Logger } from '../shared/log.ts';
import type { ModelCalls } from '../shared/model-calls/index.ts';
import type { SvcPaths } from '../shared/paths.ts';
import type { Redactor } from '../shared/redact.ts';
import type { Vault } from '../shared/vault/index.ts';
import type { Gate } from './http/plugins/access-gate.ts';
import type { SseRegistry } from './http/sse.ts';
import type { UpgradeRegistry } from './http/upgrade.ts';
import type { GatewayHostHandle } from './services/gateway-host-service.ts';
import type { GatewayLink } from './services/gateway-link.ts';
import type { GatewayWiringService } from './services/gateway-wiring-service.ts';
import type { GatewayPricesService } from './services/gateway-prices-service.ts';
import type { HealthService } from './services/health-service.ts';
import type { IngestService } from './services/ingest-service.ts';
import type { McpHost } from './services/mcp-sessions.ts';
import type { ModelCallLane } from './services/model-call-lane.ts';
import type { ModelRoutingService } from './services/model-routing-service.ts';
import type { JobPool } from './services/pool.ts';
import type { SettingsService } from './services/settings-service.ts';
import type { StreamHub } from './services/stream-hub.ts';
import type { TeamChatService } from './services/team-chat-service.ts';
import type { WorkboardService } from './services/workboard-service.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  redactor: Redactor;
  paths: SvcPaths;
  db: Db;
  tx: Tx;
  settingsTable: SettingsTable;
  eventLog: EventLog;
  /** Client-ingested batches (through the ingest worker when it runs). */
  ingest: IngestService;
  eventQueries: EventQueries;
  chatMessages: ChatMessages;
  /** Teams, agents, the board and the lead agent. */
  domain: Domain;
  hubs: { events: StreamHub<EventRow>; chat: StreamHub<ChatRow> };
  sse: SseRegistry;
  settings: SettingsService;
  health: HealthService;
  gate: Gate;
  upgrades: UpgradeRegistry;
  boundPort: () => number | null;
  /** The piscina pool for short CPU-heavy jobs (eval trials, integrity checks). */
  pool: JobPool;
  /** The secrets vault (provider keys). */
  vault: Vault;
  /** svc's device identity towards the gateway (created on first use). */
  deviceIdentity: () => DeviceIdentity;
  /** The gateway link: svc's own connection to the gateway (reconfigure() after its settings change). */
  gatewayLink: GatewayLink;
  /** The gateway-host worker (lifecycle, installs, CLI). */
  gatewayHost: GatewayHostHandle;
  /** The tools broker: builtin tools, the approval queue, the audit log. */
  broker: Broker;
  /** Budgets (issue 22): the rows the governance routes manage and the ledger model calls reserve and settle through. */
  budgets: BudgetService;
  /** Credentials svc minted for agents (MCP bindings), stored hashed. */
  agentTokens: AgentTokenStore;
  /** The in-process MCP servers (Streamable HTTP sessions under /api/mcp/*). */
  mcp: McpHost;
  /** Team chat: ingest, stop, exchanges (the team-chat worker), the stream's reads and tier-2 frames. */
  teamChat: TeamChatService;
  /** The gateway's Workboard cards (a cache on the gateway link; `enabled: false` without the plugin). */
  workboard: WorkboardService;
  /** The gateway reconciler: what svc wires into the gateway (rosters, MCP attach, routing), applied on every change that matters. */
  gatewayWiring: GatewayWiringService;
  /** Issue 22: the gateway's model calls through svc's endpoint (routing setting, the upstream registry, the view). */
  modelRouting: ModelRoutingService;
  /** One row per model call through svc's model endpoint (/model/<agentId>/…). */
  modelCalls: ModelCalls;
  /** The model endpoint's writes (its calls, reservations, settlements and records) on their own connection. */
  modelLane: ModelCallLane;
  /** The gateway's configured model prices, published for every thread's price book; refresh(config) after reading the gateway's config. */
  gatewayPrices: GatewayPricesService;
}
