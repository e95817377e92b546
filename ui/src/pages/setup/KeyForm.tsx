// The provider-key form of setup's configure step: POST configure-gateway
// with a provider, its key (write-only: a password field, read from the form
// at submit and cleared after a save; it is in the request only, never in a
// query cache, and the mutation that sent it leaves the mutation cache with
// the form), an optional model and, under Advanced, the gateway's port. The server's 400
// strings are shown as they come.
import type { FormEvent } from 'react';
import { useConfigureGateway, useGatewayConfig } from '../../api/system.ts';
import { ErrorState, Loading } from '../../components/States.tsx';
import { FormField as Field } from '../../components/FormField.tsx';
import { providersFromFlags } from '../../lib/providers.ts';

export function KeyForm() {
  const cfg = useGatewayConfig();
  const configure = useConfigureGateway();
  if (cfg.isPending) return <Loading what="providers" />;
  if (cfg.error) return <ErrorState error={cfg.error} retry={() => void cfg.refetch()} />;
  const providers = providersFromFlags(cfg.data.env);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const body: Parameters<typeof configure.mutate>[0] = { provider: text('provider') };
    if (text('apiKey')) body.apiKey = text('apiKey');
    if (text('model')) body.model = text('model');
    if (text('gatewayPort')) body.gatewayPort = Number(text('gatewayPort'));
    configure.mutate(body, { onSuccess: () => form.reset() });
  }

  return (
    <form onSubmit={submit} className="flex max-w-md flex-col gap-3" aria-label="Configure with a provider key">
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
        <button type="submit" className="btn btn-primary" disabled={configure.isPending}>
          {configure.isPending ? 'Saving…' : 'Save and configure'}
        </button>
      </div>
      {configure.error && (
        <p role="alert" className="text-danger">
          {configure.error.message}
        </p>
      )}
      {configure.data && <p role="status">Configured: the gateway will listen at {configure.data.gatewayUrl}.</p>}
    </form>
  );
}
