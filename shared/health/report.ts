// Runs the checks in order and assembles the boot report. A check that
// throws is a failed check (its message redacted by the caller's redactor
// when the report is served), never a crashed probe.
import { SETTING_ENTRIES, type Config } from '../config.ts';
import { CHECKS, type CheckDeps } from './checks.ts';
import type { BootReport, CheckResult, ReportedIn, ReportedKey, WorkerHealth } from './types.ts';
import { messageOf } from '../errors.ts';

export interface ReportDeps extends CheckDeps {
  config: Pick<Config, ReportedKey | 'otlpEndpoint' | 'otlpTracesEndpoint'>;
  /** The budgets' posture from their rows (shared/budgets store.posture); the spec's default when not given. */
  budgetPosture?: () => string;
  workers: () => WorkerHealth[] | Promise<WorkerHealth[]>;
}

/** The spec's defaults for the config block fields no setting gives; the posture is replaced by the real one. */
export const CONFIG_DEFAULTS = {
  budgetPosture: 'track-and-warn',
  otelEnabledByDefault: false,
} as const;

/**
 * The settings whose entry names a field of `block`. A secret entry cannot
 * name one (shared/config-setting.ts), so no secret is ever copied here.
 */
export function reportedSettings<B extends 'config' | 'resolved'>(config: Pick<Config, ReportedKey>, block: B): ReportedIn<B> {
  const out: Record<string, unknown> = {};
  for (const [key, s] of SETTING_ENTRIES) {
    if (s.secret || s.report === undefined) continue;
    const [where, field] = s.report.split('.') as [string, string];
    if (where === block) out[field] = (config as Readonly<Record<string, unknown>>)[key];
  }
  // Exactly the fields ReportedIn<B> lists: the same entries, read the same way.
  return out as ReportedIn<B>;
}

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
      ...reportedSettings(config, 'config'),
      ...CONFIG_DEFAULTS,
      budgetPosture: deps.budgetPosture?.() ?? CONFIG_DEFAULTS.budgetPosture,
      otelActive: Boolean(config.otlpEndpoint ?? config.otlpTracesEndpoint),
    },
    resolved: {
      ...reportedSettings(config, 'resolved'),
      apiPort: deps.apiPort,
      vaultPresent: deps.vault.vaultPresent(),
      masterKeyOk: deps.vault.masterKeyOk(),
    },
    workers: await deps.workers(),
  };
}
