// The gateway's status card and its Start / Stop / Restart. Start and
// restart are streamed jobs (the same JobProgress as setup); stop is a plain
// JSON call. The status is GET /api/system/status, polled every 5 s while
// the page is visible.
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client.ts';
import type { GatewayStopResult, SystemStatus } from '../../api/types.ts';
import { Empty, ErrorState, Loading } from '../../components/states.tsx';
import { JobProgress, useJob } from '../../features/jobs/index.ts';
import { formatUptime } from './format.ts';
import { systemKeys, useSystemJobs, useSystemStatus } from './system-api.ts';

type StopState = { state: 'idle' } | { state: 'busy' } | { state: 'done'; text: string; ok: boolean };

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
  const qc = useQueryClient();
  const jobs = useSystemJobs();
  const job = useJob('gateway');
  const [stop, setStop] = useState<StopState>({ state: 'idle' });
  const jobRunning = job?.state.outcome === 'running';

  async function doStop() {
    setStop({ state: 'busy' });
    try {
      const r = await api<GatewayStopResult>('/api/system/gateway', { method: 'POST', body: { action: 'stop' } });
      setStop({ state: 'done', ok: r.ok, text: r.ok ? 'Stopped.' : r.message });
    } catch (err) {
      setStop({ state: 'done', ok: false, text: err instanceof Error ? err.message : String(err) });
    }
    await qc.invalidateQueries({ queryKey: systemKeys.all });
  }

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
      setStop({ state: 'idle' });
      jobs.gateway(action);
    };
    body = (
      <>
        <Card s={s} gatewayVersion={gatewayVersion} />
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className="btn btn-primary" disabled={s.gateway.running || jobRunning} onClick={() => start('start')}>
            Start
          </button>
          <button type="button" className="btn btn-danger" disabled={!s.gateway.running || jobRunning || stop.state === 'busy'} onClick={() => void doStop()}>
            {stop.state === 'busy' ? 'Stopping…' : 'Stop'}
          </button>
          <button type="button" className="btn" disabled={jobRunning} onClick={() => start('restart')}>
            Restart
          </button>
        </div>
        <div role="status" className="mt-2 text-sm">
          {stop.state === 'done' && <p className={stop.ok ? undefined : 'text-danger'}>{stop.text}</p>}
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
