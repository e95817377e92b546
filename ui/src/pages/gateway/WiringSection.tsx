// The gateway page's "svc in the gateway" section (issue 30): the switch
// that lets svc wire itself into the gateway it is connected to (and the one
// for attaching its MCP servers), for each gateway agent whether svc's MCP
// servers are attached, whether its model calls pass svc, and how its spend
// is counted, each with why not and the fix; the last round; Reconcile now;
// and the undo, which takes out exactly what svc wrote (asked twice).
import { useState } from 'react';
import { useGatewayWiring, useReconcileGateway, useSetGatewayWiring, useUndoGatewayWiring } from '../../api/gateway-wiring.ts';
import type { WiringAgentView, WiringView } from '../../api/types.ts';
import { ErrorState, Loading } from '../../components/States.tsx';

type Verdict = WiringAgentView['attached'];

function Cell({ verdict, yes }: { verdict: Verdict; yes: string }) {
  return (
    <td className="py-1.5 pr-3 align-top">
      <span className={verdict.ok ? 'text-ok' : 'text-warn'}>{verdict.ok ? yes : `No: ${verdict.reason ?? 'unknown'}`}</span>
      {!verdict.ok && verdict.fix && <span className="block text-xs text-muted">Fix: {verdict.fix}</span>}
    </td>
  );
}

const METERED: Record<'before-each-call' | 'after-each-call', string> = {
  'before-each-call': 'Before each call',
  'after-each-call': 'After each call',
};

function MeteredCell({ m }: { m: WiringAgentView['metered'] }) {
  return (
    <td className="py-1.5 align-top">
      <span className={m.how === 'before-each-call' ? 'text-ok' : m.how ? '' : 'text-warn'}>{m.how ? METERED[m.how] : 'Not counted'}</span>
      {m.how !== 'before-each-call' && m.reason && <span className="block text-xs text-muted">{m.reason}</span>}
      {m.how !== 'before-each-call' && m.fix && <span className="block text-xs text-muted">Fix: {m.fix}</span>}
    </td>
  );
}

function Agents({ view }: { view: WiringView }) {
  if (view.agents.length === 0) return <p className="text-sm text-muted">No gateway agents seen yet: svc lists them once it is connected to the gateway.</p>;
  return (
    <div role="region" aria-label="What svc wired into each agent" tabIndex={0} className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="py-1.5 pr-3 font-medium">Agent</th>
            <th scope="col" className="py-1.5 pr-3 font-medium">svc&rsquo;s MCP servers</th>
            <th scope="col" className="py-1.5 pr-3 font-medium">Model calls through svc</th>
            <th scope="col" className="py-1.5 font-medium">Spend counted</th>
          </tr>
        </thead>
        <tbody>
          {view.agents.map((a) => (
            <tr key={a.gatewayId} className="border-b border-border last:border-b-0">
              <th scope="row" className="py-1.5 pr-3 align-top font-medium">
                {a.name ?? a.gatewayId}
                {a.name && a.name !== a.gatewayId && <span className="block font-mono text-xs text-muted">{a.gatewayId}</span>}
              </th>
              <Cell verdict={a.attached} yes="Attached" />
              <Cell verdict={a.routed} yes="Routed" />
              <MeteredCell m={a.metered} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LastRound({ last }: { last: WiringView['last'] }) {
  if (last === null) return <p role="status" className="text-sm text-muted">No round yet.</p>;
  const when = new Date(last.at).toLocaleString();
  if (last.noGateway) return <p role="status" className="text-sm text-muted">No gateway to wire yet ({when}).</p>;
  const changed = last.changed.config + last.changed.env.length;
  return (
    <p role="status" className={`text-sm ${last.ok ? 'text-muted' : 'text-danger'}`}>
      {last.ok
        ? `Last round ${when} (${last.reason}): ${changed === 0 ? 'nothing to change' : `${last.changed.config} config change(s), ${last.changed.env.length} .env variable(s)`}.`
        : `Last round failed ${when} (${last.reason}): ${last.error ?? 'unknown error'}`}
    </p>
  );
}

function UndoButton({ busy, onUndo }: { busy: boolean; onUndo: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="btn" disabled={busy} onClick={() => setAsking(true)}>
        Undo svc&rsquo;s changes
      </button>
    );
  }
  return (
    <div role="group" aria-label="Confirm undo" className="flex flex-wrap items-center gap-2 text-sm">
      <span>Take every change svc made out of the gateway&rsquo;s config and .env, and stop wiring it?</span>
      <button
        type="button"
        className="btn btn-danger"
        disabled={busy}
        onClick={() => {
          setAsking(false);
          onUndo();
        }}
      >
        Undo
      </button>
      <button type="button" className="btn" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </div>
  );
}

export function WiringSection() {
  const wiring = useGatewayWiring();
  const set = useSetGatewayWiring();
  const reconcile = useReconcileGateway();
  const undo = useUndoGatewayWiring();
  const busy = set.isPending || reconcile.isPending || undo.isPending;
  const failure = set.error ?? reconcile.error ?? undo.error;

  let body;
  if (wiring.isPending) body = <Loading what="svc's wiring of the gateway" />;
  else if (wiring.error) body = <ErrorState error={wiring.error} retry={() => void wiring.refetch()} />;
  else {
    const v = wiring.data;
    body = (
      <div className="flex flex-col gap-3">
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" role="switch" className="mt-0.5" checked={v.enabled} disabled={busy} onChange={(e) => set.mutate({ enabled: e.target.checked })} />
          <span>
            svc wires itself into the gateway
            <span className="block text-muted">
              {v.enabled
                ? 'svc keeps the gateway in step with its teams: who may hand work to whom, its MCP servers for each team agent, and (with model routing on) each agent\u2019s model calls through svc.'
                : 'svc writes nothing into the gateway; what it wrote earlier has been taken out.'}
            </span>
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" role="switch" className="mt-0.5" checked={v.attach} disabled={busy || !v.enabled} onChange={(e) => set.mutate({ attach: e.target.checked })} />
          <span>
            Attach svc&rsquo;s MCP servers to team agents
            <span className="block text-muted">Each agent on a team gets svc&rsquo;s tasks, memory, tools and team chat servers, speaking as that agent; it cannot use another agent&rsquo;s.</span>
          </span>
        </label>
        <p className="text-sm text-muted">
          {v.gateway.connected ? 'Connected to the gateway' : 'Not connected to a gateway'}
          {v.gateway.configPath && (
            <>
              {'; its config: '}
              <span className="font-mono text-xs break-all">{v.gateway.configPath}</span>
            </>
          )}
          {v.gateway.configPath && !v.gateway.filesReachable && '; its files are not on this machine, so svc cannot attach or route (rosters still apply).'}
        </p>
        <Agents view={v} />
        {v.backup && (
          <p className="text-sm text-muted">
            The gateway&rsquo;s config as it was before svc&rsquo;s first change: <span className="font-mono text-xs break-all">{v.backup}</span>
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn" disabled={busy || !v.enabled} onClick={() => reconcile.mutate()}>
            {reconcile.isPending ? 'Reconciling…' : 'Reconcile now'}
          </button>
          {v.enabled && <UndoButton busy={busy} onUndo={() => undo.mutate()} />}
        </div>
        <LastRound last={v.last} />
        {v.last && v.last.mismatches.length > 0 && (
          <p role="alert" className="text-sm text-danger">
            The gateway did not keep: <span className="font-mono text-xs">{v.last.mismatches.join(', ')}</span>
          </p>
        )}
        {failure && (
          <p role="alert" className="text-sm text-danger">
            {failure.message}
          </p>
        )}
      </div>
    );
  }
  return (
    <section aria-labelledby="gw-wiring" className="card">
      <h2 id="gw-wiring" className="mb-2 font-semibold">
        svc in the gateway
      </h2>
      {body}
    </section>
  );
}
