// Builds the real app in-process (real SQLite file in a temporary SVC_HOME)
// for inject() tests. Log lines are captured so tests can assert on them.
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';
import { createLateRedactor } from '../../shared/redact.ts';
import { buildApp } from '../../supervisor/http/app.ts';
import { createRuntime, type Runtime } from '../../supervisor/runtime.ts';
import { removeHome, tempHome, testEnv } from './server.ts';

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
  home: string;
  logs: string[];
}

export async function buildTestApp(
  t: TestContext,
  opts: { env?: Record<string, string>; startWorkers?: boolean; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<TestApp> {
  const home = tempHome();
  const config = loadConfig(testEnv(home, { LOG_LEVEL: 'info', ...opts.env }));
  const logs: string[] = [];
  const redactor = createLateRedactor();
  const logger = createLogger({ level: config.logLevel, redactor }, { write: (s: string) => void logs.push(s) });
  const runtime = createRuntime(config, logger, { startWorkers: opts.startWorkers ?? false });
  redactor.set(runtime.deps.redactor);
  const app = buildApp(runtime.deps);
  opts.beforeReady?.(app);
  await app.ready();
  t.after(async () => {
    await app.close();
    await runtime.close();
    removeHome(home);
  });
  return { app, runtime, config, home, logs };
}
