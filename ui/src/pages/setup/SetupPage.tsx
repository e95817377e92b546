// The setup page (`/setup`, where `/` sends a machine without an installed,
// running gateway): first a card for a gateway already set up or running on
// this machine (issue 30 #5), then Node check (with svc's own Node 24 for
// the gateway in one click, issue 30 #6), gateway CLI install, configure,
// start, pair, in order. Each step's done/to-do comes from GET
// /api/system/status (never from browser storage) and is refetched after
// every step; the installs and the start are jobs (features/jobs) that
// survive navigation.
import { Link } from 'wouter';
import { useSystemStatus } from '../../api/system.ts';
import type { SystemStatus } from '../../api/types.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { JOB_LABEL, JobProgress, useJob, useSystemJobs } from '../../features/jobs/index.ts';
import { ConfigureStep } from './ConfigureStep.tsx';
import { ExistingGatewayCard } from './ExistingGatewayCard.tsx';
import { NodeStep, nodeFits } from './NodeStep.tsx';
import { PairStep, pairSettled, usePairState } from './PairStep.tsx';
import { Step } from './Step.tsx';

function Steps({ s }: { s: SystemStatus }) {
  const jobs = useSystemJobs();
  // One install at a time (the server's rule): the Node install and the CLI install share the slot.
  const install = useJob('install-gateway');
  const nodeJob = install?.label === JOB_LABEL.installNode ? install : undefined;
  const cliJob = install?.label === JOB_LABEL.installNode ? undefined : install;
  const gateway = useJob('gateway');
  const pair = usePairState();
  const nodeOk = nodeFits(s.node);
  const installed = s.gatewayCli.installed;
  const configured = s.gatewayCli.configExists && s.gatewayCli.envExists;
  const running = s.gateway.running;
  const installing = install?.state.outcome === 'running';
  const starting = gateway?.state.outcome === 'running';
  const allDone = nodeOk && installed && configured && running && pairSettled(pair);
  return (
    <>
      <ol className="flex max-w-3xl flex-col gap-4">
        <Step n={1} title="Check Node.js" done={nodeOk}>
          <NodeStep node={s.node} job={nodeJob} installing={installing} onInstall={() => jobs.installNode()} />
        </Step>
        <Step n={2} title="Install the gateway CLI" done={installed}>
          <p>
            {installed
              ? `Installed: version ${s.gatewayCli.version ?? 'unknown'} at ${s.gatewayCli.path ?? 'an unknown path'}.`
              : s.node.managed
                ? 'The OpenClaw gateway CLI is not installed. svc installs it with npm on the Node it installed for the gateway (into that Node\u2019s folder, unless npm has a global folder of your choosing); it takes a minute or two.'
                : 'The OpenClaw gateway CLI is not installed. svc installs it globally with npm; it takes a minute or two.'}
          </p>
          <div>
            <button type="button" className={installed ? 'btn' : 'btn btn-primary'} disabled={installing} onClick={() => jobs.install()}>
              {installed ? 'Install again' : 'Install the gateway CLI'}
            </button>
          </div>
          <JobProgress job={cliJob} />
        </Step>
        <Step n={3} title="Configure the gateway" done={configured}>
          <ConfigureStep configured={configured} />
        </Step>
        <Step n={4} title="Start the gateway" done={running}>
          <p>
            {running
              ? `Running on port ${s.gateway.port}${s.gateway.pid !== null ? ` (pid ${s.gateway.pid})` : ''}.`
              : installed
                ? 'The gateway is not running.'
                : 'Install the gateway CLI first.'}
          </p>
          {!running && (
            <div>
              <button type="button" className="btn btn-primary" disabled={!installed || starting} onClick={() => jobs.gateway('start')}>
                Start the gateway
              </button>
            </div>
          )}
          <JobProgress job={gateway} />
        </Step>
        <Step n={5} title="Pair svc with the gateway" done={pair.state === 'approved'}>
          <PairStep running={running} />
        </Step>
      </ol>
      {allDone && (
        <div className="card mt-4 flex max-w-3xl flex-wrap items-center justify-between gap-3">
          <p className="font-medium">All set: the gateway is installed, configured, running and paired.</p>
          <Link href="/teams" className="btn btn-primary">
            Go to your teams
          </Link>
        </div>
      )}
    </>
  );
}

export default function SetupPage() {
  const status = useSystemStatus();
  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <div>
        <h1 className="page-title">Set up svc</h1>
        <p className="mt-1 text-sm text-muted">Five steps from a fresh machine to a running, paired gateway.</p>
      </div>
      <ExistingGatewayCard />
      {status.isPending ? (
        <Loading what="status" />
      ) : status.error ? (
        <ErrorState error={status.error} retry={() => void status.refetch()} />
      ) : (
        <Steps s={status.data} />
      )}
    </section>
  );
}
