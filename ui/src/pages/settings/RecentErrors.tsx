// The errors behind the nav's error count: the observability error feed's
// `error` events of the last 24 hours, newest first (the five latest shown).
import { useRecentErrors } from '../../api/obs.ts';
import { ErrorState, Loading } from '../../components/States.tsx';

export function RecentErrors() {
  const errors = useRecentErrors();
  return (
    <div className="flex flex-col gap-2">
      <h2 className="text-lg font-semibold">Recent errors</h2>
      {errors.isPending ? (
        <Loading what="errors" />
      ) : errors.error ? (
        <ErrorState error={errors.error} retry={() => void errors.refetch()} />
      ) : errors.data.errors.length === 0 ? (
        <p className="text-sm text-muted">No errors in the last 24 hours.</p>
      ) : (
        <>
          <p className="text-sm text-muted">
            {errors.data.errors.length} error{errors.data.errors.length === 1 ? '' : 's'} in the last 24 hours (the nav&apos;s count). The latest:
          </p>
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border bg-surface text-sm">
            {errors.data.errors.slice(0, 5).map((e) => (
              <li key={e.seq} className="flex flex-col gap-0.5 px-3 py-2">
                <span>
                  <span className="font-semibold text-danger">{e.errorClass}</span>{' '}
                  <span className="text-muted">
                    {new Date(e.ts).toLocaleString()}
                    {e.agentId ? ` · ${e.agentId}` : ''}
                  </span>
                </span>
                <span className="break-all">{e.message || '(no message)'}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
