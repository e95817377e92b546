// Caches the boot report's checks. Before the boot probe finishes, a request
// computes one on demand; concurrent requests share one computation. The
// workers' supervision state and the budget posture are always read fresh: a
// worker that went down after boot must show as down without a recheck, and a
// cap budget created after boot changes the posture.
import type { BootReport } from '../../shared/health/types.ts';
import { runBootProbe, type ReportDeps } from '../../shared/health/report.ts';

/** The health report as routes see it (AppDeps.health). */
export interface HealthService {
  /** The cached report, or one computed now when boot has not finished. */
  get(): Promise<BootReport>;
  recheck(): Promise<BootReport>;
}

export function createHealthService(deps: () => ReportDeps): HealthService & { boot(): Promise<BootReport> } {
  let cached: BootReport | null = null;
  let inflight: Promise<BootReport> | null = null;
  const compute = () => {
    inflight ??= runBootProbe(deps()).finally(() => {
      inflight = null;
    });
    return inflight;
  };
  const computeAndCache = async () => {
    const r = await compute();
    cached = r;
    return r;
  };
  return {
    // Workers and the budget posture change after boot: read fresh on every get.
    get: async () => {
      if (!cached) return compute();
      const d = deps();
      const budgetPosture = d.budgetPosture?.() ?? cached.config.budgetPosture;
      return { ...cached, config: { ...cached.config, budgetPosture }, workers: await d.workers() };
    },
    recheck: computeAndCache,
    boot: computeAndCache,
  };
}
