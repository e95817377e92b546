// The access gate page: shown instead of the app once an /api call met the
// gate's refusal. It says how to get in (open the address once with
// `?access_token=`; the server sets a cookie and drops the token from the
// address) and where the token comes from, and takes a pasted token to that
// address. The server checks it; the page never stores it.
import { useId, useState, type FormEvent } from 'react';
import { accessUrl, ACCESS_PARAM, checkToken, withoutToken } from './access-url.ts';

/** A token in the address on load means the server did not accept it (a good one is redirected away). */
function rejectedTokenInAddress(): boolean {
  if (!new URLSearchParams(window.location.search).has(ACCESS_PARAM)) return false;
  // Drop it from the address and the history entry at once: never kept.
  window.history.replaceState(window.history.state, '', withoutToken(window.location));
  return true;
}

let rejected: boolean | null = null;

export default function AccessPage() {
  rejected ??= rejectedTokenInAddress();
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(rejected ? 'That token was not accepted. Check it and try again.' : null);
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = token.trim();
    const bad = checkToken(t);
    setProblem(bad);
    if (bad) return;
    setToken('');
    window.location.assign(accessUrl(window.location, t));
  };
  return (
    <main className="mx-auto flex min-h-full max-w-xl flex-col justify-center gap-5 p-6">
      <h1 className="page-title">Access token required</h1>
      <p>
        This svc is protected by an access token. Open the dashboard once with the token in its address, and your browser is let in for 30 days
        (until svc restarts).
      </p>
      <form onSubmit={submit} noValidate className="card flex flex-col gap-2">
        <label htmlFor={`${id}-token`} className="text-sm font-medium">
          Access token
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id={`${id}-token`}
            type="password"
            className="input min-w-0 flex-1"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            aria-invalid={problem !== null}
            aria-describedby={`${id}-msg`}
            spellCheck={false}
          />
          <button type="submit" className="btn btn-primary">
            Open dashboard
          </button>
        </div>
        <p id={`${id}-msg`} role="alert" className="text-sm text-danger">
          {problem ?? ''}
        </p>
      </form>
      <div className="flex flex-col gap-2 text-sm">
        <h2 className="font-semibold">How it works</h2>
        <p>
          Pasting the token opens this address with <code className="rounded bg-surface-2 px-1">?access_token=&lt;token&gt;</code> added. svc
          checks it, sets a cookie, and takes the token out of the address again. You can also type that address yourself.
        </p>
        <h2 className="font-semibold">Where the token comes from</h2>
        <p>
          Whoever started svc chose it: the <code className="rounded bg-surface-2 px-1">STUDIO_ACCESS_TOKEN</code> environment variable, or{' '}
          <code className="rounded bg-surface-2 px-1">studioAccessToken</code> in svc&apos;s <code className="rounded bg-surface-2 px-1">settings.json</code>{' '}
          (in its state folder, <code className="rounded bg-surface-2 px-1">~/.svc</code> by default). Ask them for it if you did not start svc.
        </p>
      </div>
    </main>
  );
}
