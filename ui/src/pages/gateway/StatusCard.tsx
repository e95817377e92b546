// The gateway's status card and its Start / Stop / Restart. Start and
// restart are streamed jobs (the same JobProgress as setup); stop is a plain
// JSON call (useStopGateway: its pending state and answer drive the button
// and the line under it). The status is GET /api/system/status, polled every
// 5 s while the page is visible.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useStopGateway, useSystemStatus } from '../../api/system.ts';
import type { SystemStatus } from '../../api/types.ts';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { JobProgress, useJob, useSystemJobs } from '../../features/jobs/index.ts';
import { formatUptime } from './format.ts';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-border py-1.5 last:border-b-0">
      <dt className="text-muted">{term}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

function Card({ s, gatewayVersion }: { s: SystemStatus; gatewayVersion: string | null }) {
  const g = s.gateway;
  return (
    <dl className="text-sm">
      <Row term="State">
        <span className={g.running ? 'text-ok' : 'text-danger'}>{g.running ? 'Running' : 'Stopped'}</span>
      </Row>
      <Row term="Port">{g.port}</Row>
      <Row term="PID">{g.pid ?? '—'}</Row>
      <Row term="Uptime">{formatUptime(g.uptimeMs)}</Row>
      <Row term="Started by svc">{g.managedByService ? 'Yes' : 'No'}</Row>
      <Row term="CLI version">{s.gatewayCli.version ?? 'unknown'}</Row>
      {gatewayVersion && <Row term="Connected gateway version">{gatewayVersion}</Row>}
    </dl>
  );
}

export function StatusCard({ gatewayVersion }: { gatewayVersion: string | null }) {
  const status = useSystemStatus(5000);
  const jobs = useSystemJobs();
  const job = useJob('gateway');
  const stop = useStopGateway();
  const jobRunning = job?.state.outcome === 'running';
  // What the last stop says: the gateway's answer, or why the request failed.
  const stopped = stop.isSuccess
    ? { ok: stop.data.ok, text: stop.data.ok ? 'Stopped.' : stop.data.message }
    : stop.isError
      ? { ok: false, text: stop.error.message }
      : null;

  let body: ReactNode;
  if (status.isPending) body = <Loading what="gateway status" />;
  else if (status.error) body = <ErrorState error={status.error} retry={() => void status.refetch()} />;
  else if (!status.data.gatewayCli.installed && !status.data.gateway.running) {
    body = (
      <Empty title="The gateway CLI is not installed">
        <Link href="/setup" className="text-accent underline">
          Set it up
        </Link>{' '}
        first: install, configure, start.
      </Empty>
    );
  } else {
    const s = status.data;
    const start = (action: 'start' | 'restart') => {
      stop.reset();
      jobs.gateway(action);
    };
    body = (
      <>
        <Card s={s} gatewayVersion={gatewayVersion} />
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className="btn btn-primary" disabled={s.gateway.running || jobRunning} onClick={() => start('start')}>
            Start
          </button>
          <button type="button" className="btn btn-danger" disabled={!s.gateway.running || jobRunning || stop.isPending} onClick={() => stop.mutate()}>
            {stop.isPending ? 'Stopping…' : 'Stop'}
          </button>
          <button type="button" className="btn" disabled={jobRunning} onClick={() => start('restart')}>
            Restart
          </button>
        </div>
        <div role="status" className="mt-2 text-sm">
          {stopped && <p className={stopped.ok ? undefined : 'text-danger'}>{stopped.text}</p>}
        </div>
        <JobProgress job={job} />
      </>
    );
  }
  return (
    <section aria-labelledby="gw-status" className="card">
      <h2 id="gw-status" className="mb-2 font-semibold">
        Status
      </h2>
      {body}
    </section>
  );
}
