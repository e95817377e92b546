// What every part of the team-chat host shares: the stores over the host's
// own connection, the gateway port, the clock, the event sink and the limits.
// Built once by host.ts; the orchestrators, runs, exchanges and recovery take it.
import type { PayloadOf, EventOf, ResultOf } from '../channels/contract.ts';
import type { teamChatContract } from '../channels/team-chat.ts';
import type { CostRecords } from '../costs/index.ts';
import type { ChatMessages } from '../db/chat-messages.ts';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import type { Domain } from '../domain.ts';
import type { EventLog } from '../events/event-log.ts';
import type { GatewaySession, RequestOptions } from '../gateway/client.ts';
import type { Logger } from '../log.ts';
import type { TeamChatPosts } from './room/posts.ts';
import type { Redactor } from '../redact.ts';
import type { BudgetGate } from './budgets/budget-halt.ts';
import type { EntryWriter } from './entries.ts';
import type { Executions } from './runs/executions.ts';

type Contract = typeof teamChatContract;
export type TeamChatEventName = keyof Contract['events'] & string;
/** The host's outlet: the worker posts these on its channel; in-thread the service takes them directly. */
export type TeamChatEmit = <E extends TeamChatEventName>(event: E, payload: EventOf<Contract, E>) => void;
export type ConfigurePayload = PayloadOf<Contract, 'configure'>;
/** The host's answers, as the channel's contract defines them (one schema, no second type). */
export type IngestResult = ResultOf<Contract, 'ingest'>;
export type ExchangeResult = ResultOf<Contract, 'exchange'>;
/** What a stop ended: runs aborted, tasks released, deliveries dropped, executions cancelled. */
export type StopCounts = ResultOf<Contract, 'stop'>;

/** The host's gateway connection as the runs use it. */
export interface GatewayPort {
  /** The live session, if connected. */
  session(): GatewaySession | null;
  /** The live session, waiting up to `ms` for one (less when `signal` aborts); null when none came. */
  waitSession(ms: number, signal?: AbortSignal): Promise<GatewaySession | null>;
  request(method: string, params?: unknown, opts?: RequestOptions & { waitMs?: number }): Promise<unknown>;
  /**
   * The connection dropped while the gateway had this session's turn going.
   * A restarted gateway resumes such a turn by itself, and a message sent to
   * the session meanwhile is swallowed by that resumption; so the session is
   * reset once the connection is back, before anything else is sent on it.
   */
  cutOff(gatewaySessionKey: string): void;
}

export interface TeamChatContext {
  db: Db;
  tx: Tx;
  logger: Logger;
  now: () => number;
  domain: Domain;
  eventLog: EventLog;
  chat: ChatMessages;
  entries: EntryWriter;
  executions: Executions;
  /** Changes with every commit to the database, by any connection (db-version.ts). */
  dbVersion: () => number;
  costs: CostRecords;
  posts: TeamChatPosts;
  gateway: GatewayPort;
  redactor: Redactor;
  emit: TeamChatEmit;
  /** The budgets runs spend under (budget-halt.ts); null when the host was given none (some unit tests). */
  budgets: BudgetGate | null;
  /** What per-call metering (call-meter.ts) spent for a run, forgotten now: its end meters only the rest. */
  takeMetered(runId: string): number;
  turnBound: number;
  runTimeoutMs: number;
  /** How long a failed send waits for the connection before its one retry (10 s). */
  reconnectWaitMs: number;
  /** The host was closed (worker shutdown): runs still going write nothing more; the next start's recovery closes their rows. */
  closed(): boolean;
}
