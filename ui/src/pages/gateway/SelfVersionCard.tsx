// svc's own version: GET /api/system/self-version?local=1 (no registry call)
// until the person asks to check upstream; self-update streams its log
// through the same job component as the gateway's start.
import { useState } from 'react';
import { useSelfVersion } from '../../api/system.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { JobProgress, useJob, useSystemJobs } from '../../features/jobs/index.ts';

export function SelfVersionCard() {
  const [upstream, setUpstream] = useState(false);
  const v = useSelfVersion(upstream);
  const jobs = useSystemJobs();
  const job = useJob('self-update');
  const updating = job?.state.outcome === 'running';
  let body;
  if (v.isPending) body = <Loading what="version" />;
  else if (v.error) body = <ErrorState error={v.error} retry={() => void v.refetch()} />;
  else {
    const d = v.data;
    body = (
      <>
        <p>
          This is svc <span className="font-medium">{d.current}</span>.
        </p>
        {d.message ? (
          <p className="text-muted">{d.message}</p>
        ) : !upstream ? (
          <div>
            <button type="button" className="btn" onClick={() => setUpstream(true)}>
              Check for updates
            </button>
          </div>
        ) : !d.checked ? (
          <p className="text-muted">Could not check: the registry did not answer, or lookups are off (SVC_UPDATE_REGISTRY).</p>
        ) : d.updateAvailable ? (
          <p>svc {d.latest} is available.</p>
        ) : (
          <p>svc is up to date (the newest release is {d.latest}).</p>
        )}
        {(d.updateAvailable || job) && (
          <div>
            <button type="button" className="btn btn-primary" disabled={updating || !d.updateAvailable} onClick={() => jobs.selfUpdate()}>
              {d.latest ? `Update svc to ${d.latest}` : 'Update svc'}
            </button>
            <p className="mt-1 text-xs text-muted">svc installs the release globally with npm, then restarts itself on the same port.</p>
          </div>
        )}
        <JobProgress job={job} />
      </>
    );
  }
  return (
    <section aria-labelledby="gw-self" className="card">
      <h2 id="gw-self" className="mb-2 font-semibold">
        svc version
      </h2>
      <div className="flex flex-col gap-2 text-sm">{body}</div>
    </section>
  );
}
