// What routes are given: built once in main.ts (or by a test), passed down.
import type { Broker } from '../shared/broker/index.ts';
import type { Config } from '../shared/config.ts';
import type { DeviceIdentity } from '../shared/gateway/device-identity.ts';
import type { ConnectionStatus } from '../shared/gateway/connection.ts';
import type { GatewayHostHandle } from './gateway-host-service.ts';
import type { McpHost } from './mcp-host.ts';
import type { Vault } from '../shared/vault/index.ts';
import type { JobPool } from './pool.ts';
import type { IngestService } from './ingest-service.ts';
import type { Db } from '../shared/db/open.ts';
import type { Tx } from '../shared/db/tx.ts';
import type { ChatMessages, ChatRow } from '../shared/db/chat-messages.ts';
import type { SettingsTable } from '../shared/db/settings-table.ts';
import type { EventLog } from '../shared/events/event-log.ts';
import type { EventQueries } from '../shared/events/queries.ts';
import type { EventRow } from '../shared/events/types.ts';
import type { Domain } from '../shared/domain.ts';
import type { BootReport } from '../shared/health/types.ts';
import type { Logger } from '../shared/log.ts';
import type { SvcPaths } from '../shared/paths.ts';
import type { Redactor } from '../shared/redact.ts';
import type { SettingsPatch, SettingsPatchResult, SettingsViewShape } from './settings-service.ts';
import type { AgentTokenStore } from '../shared/agent-tokens/index.ts';
import type { Gate } from './plugins/access-gate.ts';
import type { SseRegistry } from './sse.ts';
import type { StreamHub } from './stream-hub.ts';
import type { UpgradeRegistry } from './upgrade.ts';

export interface SettingsService {
  view(): SettingsViewShape;
  validate(body: unknown): SettingsPatchResult;
  save(patch: SettingsPatch): void;
  /** The resolved gateway URL (never the token). */
  gatewayUrl(): string;
}

export interface HealthService {
  /** The cached report, or one computed now when boot has not finished. */
  get(): Promise<BootReport>;
  recheck(): Promise<BootReport>;
}

/** svc's own server-side gateway connection (the agent source). */
export interface GatewayBridge {
  /** A request to the gateway; rejects with a GatewayError (UNAVAILABLE when not connected within waitMs). */
  call(method: string, params?: unknown, opts?: { timeoutMs?: number; waitMs?: number }): Promise<unknown>;
  status(): ConnectionStatus;
  /** Settings changed: drop the session and connect again. */
  reconfigure(): void;
}

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
  /** Best-effort reconnect of the server-side gateway connection. */
  onGatewaySettingsChanged: () => void;
  /** The piscina pool for short CPU-heavy jobs (eval trials, integrity checks). */
  pool: JobPool;
  /** The secrets vault (provider keys). */
  vault: Vault;
  /** svc's device identity towards the gateway (created on first use). */
  deviceIdentity: () => DeviceIdentity;
  /** The server-side gateway connection. */
  gateway: GatewayBridge;
  /** The gateway-host worker (lifecycle, installs, CLI). */
  gatewayHost: GatewayHostHandle;
  /** The tools broker: builtin tools, the approval queue, the audit log. */
  broker: Broker;
  /** Credentials svc minted for agents (MCP bindings), stored hashed. */
  agentTokens: AgentTokenStore;
  /** The in-process MCP servers (Streamable HTTP sessions under /api/mcp/*). */
  mcp: McpHost;
}
