// Setup's configure step: auto-configure first (a key svc already has, or
// the gateway's ChatGPT login); `needsKey` shows the provider-key form,
// `needsCodexAuth` the login command with a Copy button. Either write reads
// the status again when it worked (api/system.ts), which marks the step done.
import { useState } from 'react';
import { useAutoConfigureGateway } from '../../api/system.ts';
import { KeyForm } from './KeyForm.tsx';

function CopyCommand({ command }: { command: string }) {
  const [note, setNote] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(command);
      setNote('Copied.');
    } catch (err) {
      console.warn('clipboard write failed', err);
      setNote('Could not copy: select the command and copy it yourself.');
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code className="rounded-md bg-surface-2 px-2 py-1 font-mono text-xs">{command}</code>
      <button type="button" className="btn" onClick={() => void copy()}>
        Copy
      </button>
      <span role="status">{note}</span>
    </div>
  );
}

export function ConfigureStep({ configured }: { configured: boolean }) {
  const auto = useAutoConfigureGateway();
  const [showForm, setShowForm] = useState(false);

  const result = auto.data ?? null;
  const needsKey = result !== null && !result.ok && 'needsKey' in result;
  const codex = result !== null && !result.ok && 'needsCodexAuth' in result ? result.loginCommand : null;
  return (
    <>
      <p>
        {configured
          ? 'The gateway has a config and a key file. Configure again only to change the provider.'
          : 'svc writes the gateway\u2019s config: first it looks for a provider key or login you already have.'}
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={configured ? 'btn' : 'btn btn-primary'} disabled={auto.isPending} onClick={() => auto.mutate()}>
          {auto.isPending ? 'Configuring…' : 'Configure automatically'}
        </button>
        {!needsKey && !showForm && (
          <button type="button" className="btn" onClick={() => setShowForm(true)}>
            Enter a provider key
          </button>
        )}
      </div>
      <div role="status">
        {result?.ok === true && (
          <p>
            Configured with {result.provider}: the gateway will listen at {result.gatewayUrl}.
          </p>
        )}
        {needsKey && <p>No provider key or login found. Enter a provider key below.</p>}
      </div>
      {auto.error && (
        <p role="alert" className="text-danger">
          {auto.error.message}
        </p>
      )}
      {codex !== null && (
        <div className="flex flex-col gap-1">
          <p>The ChatGPT login on this machine can serve the gateway. Run this in a terminal, then press Configure automatically again:</p>
          <CopyCommand command={codex} />
          <p className="text-muted">Or enter a provider key instead.</p>
        </div>
      )}
      {(needsKey || codex !== null || showForm) && <KeyForm />}
    </>
  );
}
