// The gateway connection: its URL (checked here with the server's own rule
// and message; the server's answer shown as it is) and its token, which is
// write-only: a password field, only "a token is set" is ever shown, the
// typed value is dropped once sent, and an empty save clears it after a
// confirmation. A stored token is for the gateway it was given for: after a
// URL change to another host or port the page says a token is needed there.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useSaveSettings } from '../../api/settings.ts';
import { checkGatewayUrl } from './logic.ts';

function UrlForm({ current }: { current: string }) {
  const [url, setUrl] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useSaveSettings();
  const id = useId();
  useEffect(() => setUrl(current), [current]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const bad = checkGatewayUrl(url);
    setProblem(bad);
    if (bad) return;
    save.mutate({ gatewayUrl: url.trim() }, { onSuccess: () => setSaved(true) });
  };
  const error = problem ?? save.error?.message ?? null;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-2">
      <label htmlFor={`${id}-url`} className="text-sm font-medium">
        Gateway URL
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={`${id}-url`}
          className="input min-w-0 flex-1"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setSaved(false);
          }}
          aria-invalid={error !== null}
          aria-describedby={`${id}-url-help ${id}-url-msg`}
          spellCheck={false}
          autoComplete="off"
          placeholder="ws://localhost:18789"
        />
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Save URL
        </button>
      </div>
      <p id={`${id}-url-help`} className="text-xs text-muted">
        Where svc reaches the OpenClaw gateway: a ws:// or wss:// address. Leave it empty to go back to the default.
      </p>
      <p id={`${id}-url-msg`} role={error ? 'alert' : 'status'} className={`text-sm ${error ? 'text-danger' : 'text-ok'}`}>
        {error ?? (saved ? 'Saved. svc reconnects to the gateway.' : '')}
      </p>
    </form>
  );
}

/** What the token field says: set, not set, or kept for another gateway while this URL needs its own. */
function tokenState(hasToken: boolean, tokenNeededFor: string | undefined): string {
  if (tokenNeededFor !== undefined) {
    return `Gateway token needed for ${tokenNeededFor}. The stored token was given for another gateway URL: svc sends it nowhere else and does not contact this URL until you save a token for it (or go back to the old URL).`;
  }
  return hasToken ? 'A token is set. Type a new one to replace it, or save an empty field to clear it.' : 'No token is set.';
}

function TokenForm({ hasToken, tokenNeededFor }: { hasToken: boolean; tokenNeededFor: string | undefined }) {
  const [token, setToken] = useState('');
  const [confirmClear, setConfirmClear] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const save = useSaveSettings();
  const id = useId();
  const send = (value: string) => {
    setNote(null);
    save.mutate(
      { gatewayToken: value },
      {
        onSuccess: () => setNote(value === '' ? 'Token cleared.' : 'Token saved.'),
        // The typed token is never kept: dropped whatever the answer.
        onSettled: () => setToken(''),
      },
    );
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (token.trim() === '') {
      if (hasToken) setConfirmClear(true);
      else setNote('Type a token to save it.');
      return;
    }
    send(token);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2">
      <label htmlFor={`${id}-token`} className="text-sm font-medium">
        Gateway token
      </label>
      <p className={`text-sm ${tokenNeededFor === undefined ? '' : 'text-danger'}`} id={`${id}-token-state`} role={tokenNeededFor === undefined ? undefined : 'alert'}>
        {tokenState(hasToken, tokenNeededFor)}
      </p>
      <div className="flex flex-wrap gap-2">
        <input
          id={`${id}-token`}
          type="password"
          className="input min-w-0 flex-1"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          autoComplete="new-password"
          aria-describedby={`${id}-token-state`}
          placeholder={hasToken ? 'type to replace' : 'paste the gateway token'}
        />
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Save token
        </button>
        {hasToken && (
          <button type="button" className="btn btn-danger" onClick={() => setConfirmClear(true)} disabled={save.isPending}>
            Clear token
          </button>
        )}
      </div>
      <p role={save.error ? 'alert' : 'status'} className={`text-sm ${save.error ? 'text-danger' : 'text-ok'}`}>
        {save.error?.message ?? note ?? ''}
      </p>
      {confirmClear && (
        <Dialog
          open
          title="Clear the gateway token?"
          onClose={() => setConfirmClear(false)}
          actions={
            <>
              <button type="button" className="btn" onClick={() => setConfirmClear(false)}>
                Cancel
              </button>
              <button
                type="button"
                className="btn btn-danger"
                onClick={() => {
                  setConfirmClear(false);
                  send('');
                }}
              >
                Clear token
              </button>
            </>
          }
        >
          <p className="text-sm">svc will connect to the gateway without a token (or use the one in the gateway&apos;s own config). You can set it again any time.</p>
        </Dialog>
      )}
    </form>
  );
}

export function GatewaySettings({ view }: { view: SettingsView }) {
  return (
    <div className="flex flex-col gap-5">
      <UrlForm current={view.gatewayUrl} />
      <TokenForm hasToken={view.hasToken} tokenNeededFor={view.tokenNeededFor} />
    </div>
  );
}
