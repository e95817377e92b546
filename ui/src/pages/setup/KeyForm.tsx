// The provider-key form of setup's configure step: POST configure-gateway
// with a provider, its key (write-only: a password field, read from the form
// at submit and cleared after; never kept in state or a query cache), an
// optional model and, under Advanced, the gateway's port. The server's 400
// strings are shown as they come.
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client.ts';
import type { ConfigureGatewayResult } from '../../api/types.ts';
import { ErrorState, Loading } from '../../components/states.tsx';
import { Field } from '../gateway/Field.tsx';
import { providersFromFlags } from '../gateway/providers.ts';
import { useGatewayConfig } from '../gateway/system-api.ts';

type Outcome = { ok: true; gatewayUrl: string } | { ok: false; message: string } | null;

export function KeyForm({ onConfigured }: { onConfigured: () => void }) {
  const cfg = useGatewayConfig();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  if (cfg.isPending) return <Loading what="providers" />;
  if (cfg.error) return <ErrorState error={cfg.error} retry={() => void cfg.refetch()} />;
  const providers = providersFromFlags(cfg.data.env);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const body: Record<string, unknown> = { provider: text('provider') };
    if (text('apiKey')) body.apiKey = text('apiKey');
    if (text('model')) body.model = text('model');
    if (text('gatewayPort')) body.gatewayPort = Number(text('gatewayPort'));
    setBusy(true);
    try {
      const r = await api<ConfigureGatewayResult>('/api/system/configure-gateway', { method: 'POST', body });
      form.reset();
      setOutcome({ ok: true, gatewayUrl: r.gatewayUrl });
      onConfigured();
    } catch (err) {
      setOutcome({ ok: false, message: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="flex max-w-md flex-col gap-3" aria-label="Configure with a provider key">
      <Field label="Provider">
        {({ id }) => (
          <select id={id} name="provider" className="input" defaultValue={providers[0]?.id}>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="API key">{({ id }) => <input id={id} name="apiKey" type="password" autoComplete="off" className="input" />}</Field>
      <Field label="Model (optional)">
        {({ id }) => <input id={id} name="model" type="text" className="input" placeholder="the provider's default" />}
      </Field>
      <details>
        <summary className="cursor-pointer">Advanced</summary>
        <div className="mt-2">
          <Field label="Gateway port">
            {({ id }) => <input id={id} name="gatewayPort" type="number" min={1} max={65535} className="input" placeholder="18789" />}
          </Field>
        </div>
      </details>
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save and configure'}
        </button>
      </div>
      {outcome?.ok === false && (
        <p role="alert" className="text-danger">
          {outcome.message}
        </p>
      )}
      {outcome?.ok === true && <p role="status">Configured: the gateway will listen at {outcome.gatewayUrl}.</p>}
    </form>
  );
}
