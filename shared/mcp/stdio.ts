// One MCP server over stdio (the svc-mcp-<server> binaries). stdout carries
// the protocol only: every log line goes to stderr. The database is the
// server's own (config.dbPath: SVC_DB_PATH, else <SVC_HOME>/svc.db), not the
// spec's legacy `~/.gateway/svc/svc.db`, so a user never ends up with two
// databases. The binding comes from SVC_MCP_* environment variables and the
// minted binding in SVC_MCP_BINDING (see binding.ts); without them the
// session is unbound. A refused binding stops the binary at start.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig, lookupEnv } from '../config.ts';
import { createLogger } from '../log.ts';
import { createAgentTokenStore } from '../agent-tokens/index.ts';
import { bindingFromEnv, stdioSessionBinding } from './binding.ts';
import { createMcpContext, stdioRedactor } from './context.ts';
import { MCP_SERVER_FACTORIES } from './servers.ts';
import type { McpServerName } from './types.ts';
import { messageOf } from '../errors.ts';

export async function runStdio(name: McpServerName): Promise<void> {
  const config = loadConfig();
  const redactor = stdioRedactor(config);
  const logger = createLogger(
    { level: config.logLevel, redactor, name: `svc-mcp-${name}` },
    { write: (line: string) => void process.stderr.write(line) },
  );
  let ctx: ReturnType<typeof createMcpContext> | null = null;
  try {
    // Read before the database opens, so a refused variable stops the binary at once.
    bindingFromEnv(name, lookupEnv);
    ctx = createMcpContext(config, logger, redactor);
    const binding = stdioSessionBinding(name, lookupEnv, createAgentTokenStore(ctx.db));
    const server = MCP_SERVER_FACTORIES[name](ctx, binding);
    const transport = new StdioServerTransport();
    const owned = ctx;
    // Re-entrant: server.close() closes the transport, whose onclose calls
    // shutdown again before the first call has returned; the flag is set
    // before anything runs so that call is a no-op.
    let stopping = false;
    let stopped: Promise<void> = Promise.resolve();
    const shutdown = (why: string): Promise<void> => {
      if (stopping) return stopped;
      stopping = true;
      logger.info({ why }, 'stdio MCP server stopping');
      stopped = (async () => {
        try {
          await server.close();
        } catch (err) {
          // Closing is best effort: the database is still closed below.
          logger.warn({ err }, 'closing the MCP server failed');
        }
        owned.close();
      })();
      return stopped;
    };
    transport.onclose = () => void shutdown('transport closed');
    process.stdin.once('end', () => void shutdown('stdin ended'));
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => void shutdown(signal).then(() => process.exit(0)));
    }
    await server.connect(transport);
    logger.info({ db: config.dbPath, bound: Object.keys(binding) }, `svc-mcp-${name} serving over stdio`);
  } catch (err) {
    logger.fatal({ err }, `svc-mcp-${name} failed to start`);
    // A person reads this (a newer schema, a refused binding): one plain line beside the JSON log line.
    process.stderr.write(`svc-mcp-${name}: ${redactor.text(messageOf(err))}\n`);
    ctx?.close();
    process.exitCode = 1;
  }
}
