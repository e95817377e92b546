// Runs the checks in order and assembles the boot report. A check that
// throws is a failed check (its message redacted by the caller's redactor
// when the report is served), never a crashed probe.
import type { Config } from '../config.ts';
import { CHECKS, type CheckDeps } from './checks.ts';
import type { BootReport, CheckResult, WorkerHealth } from './types.ts';
import { messageOf } from '../errors.ts';

export interface ReportDeps extends CheckDeps {
  config: Pick<
    Config,
    'logLevel' | 'svcHome' | 'dbPath' | 'gatewayStateDir' | 'otlpEndpoint' | 'otlpTracesEndpoint' | 'budgetHardCapUsdCents' | 'budgetWarnPct'
  >;
  /** The budgets' posture from their rows (shared/budgets store.posture); the spec's default when not given. */
  budgetPosture?: () => string;
  workers: () => WorkerHealth[] | Promise<WorkerHealth[]>;
}

/** The spec's defaults for the config block; the budget values are replaced by the real ones. */
export const CONFIG_DEFAULTS = {
  budgetPosture: 'track-and-warn',
  budgetHardCapUsdCents: null,
  budgetWarnSoftPct: 80,
  otelEnabledByDefault: false,
} as const;

export async function runBootProbe(deps: ReportDeps): Promise<BootReport> {
  const startedAt = new Date();
  const checks: CheckResult[] = [];
  const fatal: string[] = [];
  const degraded: string[] = [];
  for (const def of CHECKS) {
    if (def.applies && !def.applies(deps)) continue;
    const t0 = performance.now();
    let outcome;
    try {
      outcome = await def.run(deps);
    } catch (err) {
      outcome = { ok: false, message: `${def.id} threw: ${messageOf(err)}` };
    }
    checks.push({ id: def.id, ...outcome, durationMs: Math.round((performance.now() - t0) * 100) / 100 });
    if (!outcome.ok) (def.fatal ? fatal : degraded).push(def.id);
  }
  const { config } = deps;
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    checks,
    degraded,
    fatal,
    config: {
      logLevel: config.logLevel,
      ...CONFIG_DEFAULTS,
      budgetPosture: deps.budgetPosture?.() ?? CONFIG_DEFAULTS.budgetPosture,
      budgetHardCapUsdCents: config.budgetHardCapUsdCents,
      budgetWarnSoftPct: config.budgetWarnPct,
      otelActive: Boolean(config.otlpEndpoint ?? config.otlpTracesEndpoint),
    },
    resolved: {
      svcHome: config.svcHome,
      dbPath: config.dbPath,
      apiPort: deps.apiPort,
      stateDir: config.gatewayStateDir,
      vaultPresent: deps.vault.vaultPresent(),
      masterKeyOk: deps.vault.masterKeyOk(),
    },
    workers: await deps.workers(),
  };
}
