// Setup's first card (issue 30 #5): a gateway already set up or running on
// this machine (GET /api/system/existing-gateway), with "Connect to it"
// (POST /api/system/connect-existing-gateway) and how that went, so a person
// who runs one is not led to install and configure a second. Nothing found:
// no card. svc already connected to it: the card says so. The steps below
// stay for a fresh gateway.
import { useId, type ReactNode } from 'react';
import { type ExistingGateway, useConnectExistingGateway, useExistingGateway } from '../../api/system.ts';

function tokenText(g: ExistingGateway): string {
  if (!g.tokenPresent) return g.tokenVariable ? `its config names the token variable ${g.tokenVariable}, which is not set` : 'no gateway token was found';
  if (g.tokenSource === 'config') return 'its token is in openclaw.json';
  const where = g.tokenSource === 'env-file' ? '.env' : 'svc\u2019s environment';
  return `its token is ${g.tokenVariable ?? 'set'} in ${where}`;
}

function probeText(g: ExistingGateway): string | null {
  switch (g.probe) {
    case 'starting':
      return 'It is still starting.';
    case 'refused':
      return `It refused svc\u2019s test connect (${g.probeCode ?? 'refused'}); connecting saves its address anyway, and the outcome below says what the gateway answers.`;
    case 'not-a-gateway':
      return `Something listens on port ${g.port}, but it did not answer as a gateway.`;
    default:
      return null;
  }
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="card max-w-3xl border-accent break-words">
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      <div className="mt-2 flex flex-col gap-2 text-sm">{children}</div>
    </section>
  );
}

function ConnectOutcome({ connect }: { connect: ReturnType<typeof useConnectExistingGateway> }) {
  if (connect.isError) {
    return (
      <p role="alert" className="text-danger">
        Could not connect: {connect.error.message}
      </p>
    );
  }
  const r = connect.data;
  return (
    <div role="status">
      {connect.isPending && <p>Connecting…</p>}
      {r?.connected && <p className="font-medium text-ok">Connected: svc now uses the gateway at {r.gatewayUrl}.</p>}
      {r && !r.connected && (
        <p className="font-medium text-warn">
          svc now uses {r.gatewayUrl}, but its connect has not succeeded yet
          {r.link.error ? ` (${r.link.error.code}: ${r.link.error.message})` : ''}. svc keeps trying; Settings shows the gateway&rsquo;s state.
        </p>
      )}
    </div>
  );
}

export function ExistingGatewayCard() {
  const found = useExistingGateway();
  const connect = useConnectExistingGateway();
  if (found.isPending) return null;
  if (found.error) {
    return (
      <p role="alert" className="max-w-3xl text-sm text-danger">
        Could not look for a gateway already on this machine: {found.error.message}{' '}
        <button type="button" className="btn ml-2" onClick={() => void found.refetch()}>
          Look again
        </button>
      </p>
    );
  }
  const g = found.data;
  if (!g.found) return null;
  const cli = g.cli?.installed ? ` Its CLI is installed (version ${g.cli.version ?? 'unknown'}).` : '';
  const where = `Found in ${g.stateDir}: ${g.configExists ? 'a config (openclaw.json)' : 'no config'}, ${tokenText(g)}.${cli}`;
  if (g.svc.connected) {
    return (
      <Card title={`svc is connected to the gateway running on port ${g.port}`}>
        <p>
          {where} Only pairing (step 5) is left to do for it; the other steps are for a fresh gateway.
        </p>
        <ConnectOutcome connect={connect} />
      </Card>
    );
  }
  if (!g.running && g.svc.pointsHere) {
    return (
      <Card title="svc is set to use the gateway set up on this machine">
        <p>
          {where} It is not running on port {g.port}: start it below.
        </p>
      </Card>
    );
  }
  return (
    <Card title={g.running ? `A gateway is already running on port ${g.port}` : 'A gateway is already set up on this machine'}>
      <p>
        {where} {g.running ? '' : `It listens on port ${g.port} when it runs; it is not running now. `}
        {probeText(g)}
      </p>
      <p>Connect svc to it instead of installing a second one. The steps below stay available if you want a fresh gateway.</p>
      <div>
        <button type="button" className="btn btn-primary" disabled={connect.isPending} onClick={() => connect.mutate()}>
          {connect.isPending ? 'Connecting…' : 'Connect to it'}
        </button>
      </div>
      <ConnectOutcome connect={connect} />
    </Card>
  );
}
