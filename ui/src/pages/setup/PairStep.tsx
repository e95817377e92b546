// Setup's pairing step: one button, POST /api/system/approve-device, which
// approves svc's own pending pairing request at the gateway. Its answer is
// the last approve-device mutation of this tab (useLastApproveDevice,
// api/system.ts), kept in the mutation cache, so it is still shown after
// navigating away and back; GET /api/system/status does not report pairing.
import { useApproveDevice, useLastApproveDevice, type ApproveDeviceState } from '../../api/system.ts';
import { ApiError } from '../../api/errors.ts';

export type PairState =
  | { state: 'idle' }
  | { state: 'busy' }
  | { state: 'approved'; requestId: string }
  | { state: 'none-pending'; message: string; details: string | null }
  | { state: 'error'; message: string };

/** What the last pairing attempt says; a 404 means nothing waits for approval. */
export function pairStateOf(m: ApproveDeviceState | undefined): PairState {
  if (!m || m.status === 'idle') return { state: 'idle' };
  if (m.status === 'pending') return { state: 'busy' };
  if (m.status === 'success') return { state: 'approved', requestId: m.data?.requestId ?? '' };
  const err = m.error;
  if (err instanceof ApiError && err.status === 404) {
    const details = (err.body as { details?: unknown } | undefined)?.details;
    return { state: 'none-pending', message: err.message, details: typeof details === 'string' ? details : null };
  }
  return { state: 'error', message: err instanceof Error ? err.message : String(err) };
}

/** The pairing state the setup page shows, whichever component started the last attempt. */
export function usePairState(): PairState {
  return pairStateOf(useLastApproveDevice());
}

/** Pairing is settled when svc's device was approved or nothing waits for approval. */
export const pairSettled = (p: PairState) => p.state === 'approved' || p.state === 'none-pending';

export function PairStep({ running }: { running: boolean }) {
  const approve = useApproveDevice();
  const p = usePairState();
  return (
    <>
      <p>
        The gateway lets a browser-side connection through svc only from a paired device. Pairing approves svc&rsquo;s own request at the
        gateway; requests from other devices are left alone.
      </p>
      {!running && <p className="text-muted">Start the gateway first.</p>}
      <div>
        <button type="button" className="btn btn-primary" disabled={!running || p.state === 'busy'} onClick={() => approve.mutate()}>
          {p.state === 'busy' ? 'Pairing…' : 'Pair svc with the gateway'}
        </button>
      </div>
      <div role="status">
        {p.state === 'approved' && <p className="text-ok">Paired: the gateway approved svc&rsquo;s device (request {p.requestId}).</p>}
        {p.state === 'none-pending' && (
          <div className="flex flex-col gap-1">
            <p className="font-medium">{p.message}</p>
            <p>
              Nothing is waiting for approval: svc&rsquo;s device is already paired, or svc has not tried to connect through the gateway yet.
              Nothing to do now; if a page later says svc is not paired, come back and press the button again.
            </p>
            {p.details && <p className="text-muted">{p.details}</p>}
          </div>
        )}
      </div>
      {p.state === 'error' && (
        <p role="alert" className="text-danger">
          {p.message}
        </p>
      )}
    </>
  );
}
