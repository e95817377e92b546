// The McpContext of a stdio binary: its own connection to the same database
// as the server (config.dbPath: SVC_DB_PATH, else <SVC_HOME>/svc.db), and the
// same stores the supervisor builds over it. Rows it commits reach the
// dashboard's live streams through the tail worker's poll.
import { createBroker } from '../broker/index.ts';
import { lookupEnv, type Config } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { createSettingsTable } from '../db/settings-table.ts';
import { createTx } from '../db/tx.ts';
import { createDomain } from '../domain.ts';
import { createEventLog } from '../events/event-log.ts';
import type { Logger } from '../log.ts';
import { svcPaths } from '../paths.ts';
import { createRedactor, isSensitiveKey, type Redactor } from '../redact.ts';
import { readStudioAccessToken, resolveGatewaySettings } from '../settings/index.ts';
import type { McpContext } from './types.ts';

/**
 * The exact secrets a stdio binary knows of, for its redactor: read once at
 * start (the binary is short-lived beside the server, and reading the
 * settings and gateway files per redaction would cost a file read per log
 * line); the gateway token as svc resolves it.
 */
export function stdioRedactor(config: Config): Redactor {
  const settingsFile = svcPaths(config).settingsFile;
  const settingsToken = readStudioAccessToken(settingsFile);
  const gatewayToken = resolveGatewaySettings({ settingsFile, gatewayStateDir: config.gatewayStateDir, lookupEnv }).token;
  const otlp = Object.entries(config.otlpHeaders).filter(([k]) => isSensitiveKey(k)).map(([, v]) => v);
  const secrets = [config.accessToken, settingsToken, gatewayToken, config.secretsMasterKey, config.searchApiKey, config.embeddingsApiKey, ...otlp];
  return createRedactor(() => secrets);
}

export interface OwnedMcpContext extends McpContext {
  /** Closes the database connection (SQLite checkpoints on the last close). */
  close(): void;
}

export function createMcpContext(config: Config, logger: Logger, redactor: Redactor): OwnedMcpContext {
  const db = openDatabase(config.dbPath);
  const tx = createTx(db, (err) => logger.error({ err }, 'after-commit hook failed'));
  const eventLog = createEventLog({ db, tx, logger, redactor });
  const settingsTable = createSettingsTable(db);
  const domain = createDomain({ db, tx, settingsTable, eventLog, logger });
  const broker = createBroker({ db, tx, config, paths: svcPaths(config), logger, redactor, eventLog });
  return {
    config,
    db,
    tx,
    domain,
    eventLog,
    broker,
    logger,
    redactor,
    close: () => {
      if (db.open) db.close();
    },
  };
}
