// The boot probe's checks (GET /api/health), each ok / degraded / fatal with
// its message, and Recheck (POST /api/health/recheck), whose answer replaces
// the list.
import { useHealth, useRecheck } from '../../api/health.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { checkLevel, healthSummary, type CheckLevel } from './logic.ts';

const TONE: Record<CheckLevel, string> = { ok: 'text-ok', degraded: 'text-warn', fatal: 'text-danger' };

export function HealthChecks() {
  const health = useHealth();
  const recheck = useRecheck();
  const head = (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h2 className="text-lg font-semibold">Health checks</h2>
      <button type="button" className="btn" onClick={() => recheck.mutate()} disabled={recheck.isPending}>
        {recheck.isPending ? 'Rechecking…' : 'Recheck'}
      </button>
    </div>
  );
  if (health.isPending) return <div className="flex flex-col gap-2">{head}<Loading what="health checks" /></div>;
  if (health.error) return <div className="flex flex-col gap-2">{head}<ErrorState error={health.error} retry={() => void health.refetch()} /></div>;
  const report = health.data;
  const summary = healthSummary(report);
  return (
    <div className="flex flex-col gap-3">
      {head}
      <p role="status" aria-live="polite" className={`text-sm font-medium ${TONE[summary.level]}`}>
        {summary.text} <span className="font-normal text-muted">Checked {new Date(report.finishedAt).toLocaleString()}.</span>
      </p>
      {recheck.error && (
        <p role="alert" className="text-sm text-danger">
          {recheck.error.message}
        </p>
      )}
      <ul className="flex flex-col divide-y divide-border rounded-lg border border-border bg-surface" aria-label="Health checks">
        {report.checks.map((c) => {
          const level = checkLevel(c, report);
          return (
            <li key={c.id} className="flex flex-col gap-0.5 px-3 py-2 sm:flex-row sm:items-baseline sm:gap-3">
              <span className={`w-20 shrink-0 text-sm font-semibold ${TONE[level]}`}>{level}</span>
              <span className="font-mono text-sm break-all sm:w-56 sm:shrink-0">{c.id}</span>
              <span className="text-sm text-muted">{c.message}</span>
            </li>
          );
        })}
      </ul>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted">Where svc keeps its state</summary>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="text-muted">State folder</dt>
          <dd className="font-mono break-all">{report.resolved.svcHome}</dd>
          <dt className="text-muted">Database</dt>
          <dd className="font-mono break-all">{report.resolved.dbPath}</dd>
          <dt className="text-muted">API port</dt>
          <dd>{report.resolved.apiPort ?? 'unknown'}</dd>
        </dl>
      </details>
    </div>
  );
}
