// svc's entry point: read config, refuse an unsafe bind, build the runtime,
// bind, write api-port.txt, run the boot probe, and shut down gracefully on
// SIGINT/SIGTERM (stop accepting, let in-flight requests finish, close
// streams, stop workers, checkpoint the WAL, close the DB, remove the port file).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../shared/config.ts';
import { createLogger } from '../shared/log.ts';
import { createLateRedactor } from '../shared/redact.ts';
import { agentExecHint } from '../shared/security/agent-exec-hint.ts';
import { readGatewayConfig } from '../shared/settings/gateway-files.ts';
import { buildApp, hostGuardOptions } from './http/app.ts';
import { bindServer } from './http/bind.ts';
import { installFatalHandlers } from './fatal-handlers.ts';
import { TOKEN_RE } from './http/plugins/access-gate.ts';
import { isLoopbackAddress } from './http/plugins/host-header-guard.ts';
import { createRuntime, gateToken } from './runtime.ts';
import { attachUpgradeHandling } from './http/upgrade.ts';
import { messageOf } from '../shared/errors.ts';

const SHUTDOWN_DEADLINE_MS = 15_000;
const DRAIN_DEADLINE_MS = 5_000;

async function main(): Promise<void> {
  const t0 = performance.now();
  const config = loadConfig();

  const token = gateToken(config);
  if (!isLoopbackAddress(config.host) && !(token && TOKEN_RE.test(token)) && !config.allowInsecure) {
    console.error(
      `SECURITY: refusing to bind ${config.host}, a non-loopback address, without STUDIO_ACCESS_TOKEN. ` +
        'Set a token, bind 127.0.0.1, or set SVC_ALLOW_INSECURE=1 to accept the risk.',
    );
    process.exit(1);
  }

  // The logger exists before the runtime's redactor; it forwards to it once built.
  const redactor = createLateRedactor();
  const logger = createLogger({ level: config.logLevel, redactor });
  // Either leaves the process in an unknown state: log and exit 1 (fatal-handlers.ts says why).
  installFatalHandlers({ logger, redactor });

  const runtime = createRuntime(config, logger);
  redactor.set(runtime.deps.redactor);
  const app = buildApp(runtime.deps);
  attachUpgradeHandling(app.server, {
    gate: runtime.deps.gate,
    hostGuard: hostGuardOptions(runtime.deps),
    registry: runtime.deps.upgrades,
    logger,
  });
  await app.ready();

  let port: number;
  try {
    port = await bindServer(app.server, config, logger);
  } catch (err) {
    logger.error({ err }, 'could not bind');
    console.error(`svc: ${messageOf(err)}`);
    await runtime.close();
    process.exit(1);
  }
  runtime.setBoundPort(port);
  const portFile = runtime.deps.paths.apiPortFile;
  writeFileSync(portFile, `${port}\n`);
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ port, host: config.host, bootMs: Math.round(performance.now() - t0) }, 'svc ready');
  console.log(`svc ${config.version} ready on ${url}`);
  const execHint = agentExecHint({ gateOn: runtime.deps.gate.enabled, gatewayConfig: readGatewayConfig(config.gatewayStateDir).config });
  if (execHint) console.log(execHint);

  let shuttingDown = false;
  const shutdown = async (reason: string, code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ reason }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown deadline passed; exiting');
      process.exit(code || 1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    const server = app.server;
    // The port file goes first, in the same tick as closing the listener: a
    // successor (svc restart) can bind only after this, so its own file is
    // never the one removed.
    try {
      if (readFileSync(portFile, 'utf8').trim() === String(port)) rmSync(portFile, { force: true });
    } catch (err) {
      // Already gone (e.g. removed by `svc stop`): nothing to clean.
      logger.debug({ err }, 'port file not removed');
    }
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    runtime.deps.sse.closeAll();
    // The MCP sessions' GET streams (the gateway's, once svc attached itself) never end by themselves.
    await runtime.deps.mcp.close();
    // In-flight requests finish; connections that fall idle are closed as they do.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const force = setTimeout(() => server.closeAllConnections(), DRAIN_DEADLINE_MS);
    await closed;
    clearInterval(idle);
    clearTimeout(force);
    await app.close();
    try {
      await runtime.close();
    } catch (err) {
      logger.error({ err }, 'closing the runtime failed');
    }
    logger.info('stopped');
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown('SIGINT', 0));
  process.once('SIGTERM', () => void shutdown('SIGTERM', 0));

  const report = await runtime.bootProbe();
  if (report.fatal.length > 0) {
    logger.fatal({ fatal: report.fatal, checks: report.checks.filter((c) => !c.ok) }, 'fatal boot check failed');
    console.error(`svc: fatal boot check failed: ${report.fatal.join(', ')}`);
    await shutdown('fatal boot check', 1);
  } else if (report.degraded.length > 0) {
    logger.warn({ degraded: report.degraded }, 'running degraded');
  }
}

main().catch((err: unknown) => {
  console.error('svc: failed to start:', messageOf(err));
  process.exit(1);
});
