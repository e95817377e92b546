// The gateway page's "Model routing" section (issue 22): whether svc stands
// in front of the gateway's model calls (the switch, PUT), each agent and
// whether its calls are routed (and why not), the provider keys svc holds
// (presence only: a key's value never reaches the page), a warning naming
// any real provider key still in the gateway's files, and Sync. Issue 31:
// an upstream whose base URL moved off the host its key was stored for is
// shown unconfirmed with a button to confirm it; each agent's model token
// can be rotated or revoked (the token itself never reaches the page). Each
// agent's fallbacks, and the model it runs on as a sub-agent, are listed
// under its model, each through svc or not and why.
import { useAgentTokenAction, useConfirmUpstreamHost, useModelRouting, useSetModelRouting, useSyncModelRouting } from '../../api/model-routing.ts';
import type { ModelRoutingView } from '../../api/types.ts';
import { ErrorState, Loading } from '../../components/States.tsx';

const REASON: Record<NonNullable<ModelRoutingView['agents'][number]['reason']>, string> = {
  oauth: 'Not routed: a login (OAuth) provider; metered from the gateway’s usage',
  'no-upstream': 'Not routed: no provider svc can stand in front of',
  disabled: 'Not routed: routing is off',
  'svc-secret': 'Not routed: its provider entry names one of svc’s own credentials as a key',
};

const TOKEN: Record<ModelRoutingView['tokens'][number]['state'], string> = {
  live: 'Live',
  revoked: 'Revoked: its calls are refused until rotated',
  none: 'None yet',
};

function TokenCell({ agentId, view }: { agentId: string; view: ModelRoutingView }) {
  const action = useAgentTokenAction();
  const token = view.tokens.find((x) => x.agentId === agentId);
  if (!token) return <td className="py-1.5 text-muted">—</td>;
  const pending = action.isPending;
  return (
    <td className="py-1.5">
      <span className={token.state === 'live' ? 'text-ok' : token.state === 'revoked' ? 'text-warn' : 'text-muted'}>{TOKEN[token.state]}</span>
      {token.state !== 'none' && (
        <span className="ml-2 inline-flex gap-2">
          <button type="button" className="btn" disabled={pending} aria-label={`Rotate ${agentId}'s model token`} onClick={() => action.mutate({ agentId, action: 'rotate' })}>
            Rotate
          </button>
          {token.state === 'live' && (
            <button type="button" className="btn" disabled={pending} aria-label={`Revoke ${agentId}'s model token`} onClick={() => action.mutate({ agentId, action: 'revoke' })}>
              Revoke
            </button>
          )}
        </span>
      )}
      {action.error && (
        <span role="alert" className="block text-danger">
          {action.error.message}
        </span>
      )}
    </td>
  );
}

type AgentView = ModelRoutingView['agents'][number];

/**
 * Refs the gateway may call for the agent besides its model, each through svc
 * or why not: its fallbacks in the order tried, or its sub-agent model (primary, then fallbacks).
 */
function Refs({ agent: a, enabled, which }: { agent: AgentView; enabled: boolean; which: 'fallbacks' | 'subagentModel' }) {
  const refs = a[which];
  if (refs.length === 0) return null;
  const label = which === 'fallbacks' ? `${a.agentId}'s fallbacks` : `${a.agentId}'s sub-agent model`;
  return (
    <ul className="mt-1 flex flex-col gap-0.5" aria-label={label}>
      {refs.map((f, i) => (
        <li key={`${i}:${f.ref}`}>
          <span className="text-muted">{which === 'fallbacks' || i > 0 ? 'then ' : 'as a sub-agent '}</span>
          {f.ref}{' '}
          <span className={`font-sans ${f.routed ? 'text-ok' : 'text-muted'}`}>
            {f.routed ? '(through svc)' : f.reason ? `(${REASON[f.reason]})` : enabled ? '(not routed yet: Sync routes it)' : '(not routed)'}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Agents({ view: v }: { view: ModelRoutingView }) {
  if (v.agents.length === 0) return <p className="text-sm text-muted">No agents on the gateway yet.</p>;
  return (
    // On a phone the table scrolls inside its (focusable) region rather than squeezing four columns into 390 px.
    <div role="region" aria-label="Routed agents" tabIndex={0} className="overflow-x-auto">
      <table className="w-full min-w-xl text-left text-sm">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="py-1.5 pr-3 font-medium">Agent</th>
            <th scope="col" className="py-1.5 pr-3 font-medium">Model</th>
            <th scope="col" className="py-1.5 pr-3 font-medium">Through svc</th>
            <th scope="col" className="py-1.5 font-medium">Model token</th>
          </tr>
        </thead>
        <tbody>
          {v.agents.map((a) => (
            <tr key={a.agentId} className="border-b border-border last:border-b-0">
              <th scope="row" className="py-1.5 pr-3 font-medium">{a.agentId}</th>
              <td className="py-1.5 pr-3 font-mono text-xs break-all">
                {a.upstream && a.model ? `${a.upstream}/${a.model}` : (a.model ?? '—')}
                <Refs agent={a} enabled={v.enabled} which="fallbacks" />
                <Refs agent={a} enabled={v.enabled} which="subagentModel" />
              </td>
              <td className={`py-1.5 pr-3 ${a.routed ? 'text-ok' : 'text-muted'}`}>{a.routed ? 'Routed' : a.reason ? REASON[a.reason] : v.enabled ? 'Not routed yet: Sync routes it' : 'Not routed'}</td>
              <TokenCell agentId={a.agentId} view={v} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function UpstreamKey({ upstream: u }: { upstream: ModelRoutingView['upstreams'][number] }) {
  const confirm = useConfirmUpstreamHost();
  if (u.state !== 'key-unconfirmed') return <span className={u.keyHeld ? 'text-ok' : 'text-muted'}>{u.keyHeld ? 'Key held by svc' : 'No key held'}</span>;
  return (
    <span className="flex flex-col items-end gap-1">
      <span className="text-warn">Key not sent: {u.origin ?? 'this host'} is not the host it was stored for</span>
      {u.origin !== null && (
        <button type="button" className="btn" disabled={confirm.isPending} onClick={() => confirm.mutate({ id: u.id, origin: u.origin as string })}>
          Send the key to {u.origin}
        </button>
      )}
      {confirm.error && (
        <span role="alert" className="text-danger">
          {confirm.error.message}
        </span>
      )}
    </span>
  );
}

function Upstreams({ view }: { view: ModelRoutingView }) {
  if (view.upstreams.length === 0) return <p className="text-sm text-muted">svc holds no provider yet.</p>;
  return (
    <ul className="flex flex-col divide-y divide-border text-sm" aria-label="Providers svc forwards to">
      {view.upstreams.map((u) => (
        <li key={u.id} className="flex flex-wrap items-baseline justify-between gap-2 py-1.5">
          <span>
            <span className="font-medium">{u.id}</span> <span className="font-mono text-xs break-all text-muted">{u.baseUrl}</span>
          </span>
          <UpstreamKey upstream={u} />
        </li>
      ))}
    </ul>
  );
}

function KeyNames({ names }: { names: string[] }) {
  return (
    <ul className="mt-1 list-disc pl-5 font-mono text-xs" aria-label="Provider keys in the gateway's files">
      {names.map((k) => (
        <li key={k}>{k}</li>
      ))}
    </ul>
  );
}

export function ModelRoutingSection() {
  const routing = useModelRouting();
  const toggle = useSetModelRouting();
  const sync = useSyncModelRouting();
  const busy = toggle.isPending || sync.isPending;
  const failure = toggle.error ?? sync.error;

  let body;
  if (routing.isPending) body = <Loading what="model routing" />;
  else if (routing.error) body = <ErrorState error={routing.error} retry={() => void routing.refetch()} />;
  else {
    const v = routing.data;
    body = (
      <div className="flex flex-col gap-3">
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" role="switch" className="mt-0.5" checked={v.enabled} disabled={busy} onChange={(e) => toggle.mutate(e.target.checked)} />
          <span>
            Route model calls through svc
            <span className="block text-muted">
              {v.enabled
                ? `The gateway's agents call svc${v.endpoint ? ` at ${v.endpoint}` : ''}; svc holds the provider keys, enforces budgets before each call and records every call.`
                : 'The gateway calls the providers itself with the keys in its own files; svc meters spend from the usage the gateway reports, after each call.'}
            </span>
          </span>
        </label>
        {v.keysInGatewayFiles.length > 0 &&
          (v.enabled ? (
            <div role="alert" className="rounded-lg border border-warn p-3 text-sm">
              <p className="font-medium text-warn">Provider keys are still in the gateway&apos;s files:</p>
              <KeyNames names={v.keysInGatewayFiles} />
              <p className="mt-1 text-muted">Sync moves them into svc&rsquo;s vault, out of the files the gateway reads.</p>
            </div>
          ) : (
            <div className="text-sm text-muted">
              <p>With routing off the gateway reads its provider keys from its own files:</p>
              <KeyNames names={v.keysInGatewayFiles} />
            </div>
          ))}
        <h3 className="text-sm font-semibold">Agents</h3>
        <Agents view={v} />
        <h3 className="text-sm font-semibold">Provider keys held by svc</h3>
        <Upstreams view={v} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn" disabled={busy} onClick={() => sync.mutate()}>
            {sync.isPending ? 'Syncing…' : 'Sync'}
          </button>
          <p role="status" className="text-sm text-muted">
            {v.lastSync === null
              ? 'Not synced yet.'
              : v.lastSync.ok
                ? `Last synced ${new Date(v.lastSync.at).toLocaleString()}.`
                : `Last sync failed (${new Date(v.lastSync.at).toLocaleString()}): ${v.lastSync.error ?? 'unknown error'}`}
          </p>
        </div>
        {failure && (
          <p role="alert" className="text-sm text-danger">
            {failure.message}
          </p>
        )}
      </div>
    );
  }
  return (
    <section aria-labelledby="gw-model-routing" className="card">
      <h2 id="gw-model-routing" className="mb-2 font-semibold">
        Model routing
      </h2>
      {body}
    </section>
  );
}
