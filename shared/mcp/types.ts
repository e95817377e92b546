// What every MCP server factory gets: the same stores the HTTP routes use,
// built by the supervisor (Streamable HTTP sessions) or by a stdio binary
// from its own connection to the same database, so both transports run the
// same rules. `binding` is the attach URL's query (HTTP) or the binary's
// environment (stdio), read once at initialize: what a session is bound to
// cannot be widened through tool arguments (spec "Session binding").
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Broker } from '../broker/index.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import type { Domain } from '../domain.ts';
import type { EventLog } from '../events/event-log.ts';
import type { Logger } from '../log.ts';
import type { Redactor } from '../redact.ts';

export const MCP_SERVER_NAMES = ['tasks', 'memory', 'tools', 'teamchat'] as const;
export type McpServerName = (typeof MCP_SERVER_NAMES)[number];

export interface McpContext {
  config: Config;
  db: Db;
  tx: Tx;
  domain: Domain;
  eventLog: EventLog;
  broker: Broker;
  logger: Logger;
  redactor: Redactor;
}

/** The session's binding parameters (attach URL query or stdio environment); absent keys are unbound. */
export type McpBinding = Readonly<Record<string, string | undefined>>;

export type McpServerFactory = (ctx: McpContext, binding: McpBinding) => McpServer;
