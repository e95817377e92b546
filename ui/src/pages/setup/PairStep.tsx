// Setup's pairing step: one button, POST /api/system/approve-device, which
// approves svc's own pending pairing request at the gateway. Its answer is
// kept outside the component (pairStore) so it is still shown after
// navigating away and back; GET /api/system/status does not report pairing.
import { ApiError, api } from '../../api/client.ts';
import type { ApproveDeviceResult } from '../../api/types.ts';
import { createStore, useStore } from '../../lib/store.ts';

export type PairState =
  | { state: 'idle' }
  | { state: 'busy' }
  | { state: 'approved'; requestId: string }
  | { state: 'none-pending'; message: string; details: string | null }
  | { state: 'error'; message: string };

export const pairStore = createStore<PairState>({ state: 'idle' });

/** Pairing is settled when svc's device was approved or nothing waits for approval. */
export const pairSettled = (p: PairState) => p.state === 'approved' || p.state === 'none-pending';

async function pair(): Promise<void> {
  pairStore.set({ state: 'busy' });
  try {
    const r = await api<ApproveDeviceResult>('/api/system/approve-device', { method: 'POST' });
    pairStore.set({ state: 'approved', requestId: r.requestId });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      const details = (err.body as { details?: unknown } | undefined)?.details;
      pairStore.set({ state: 'none-pending', message: err.message, details: typeof details === 'string' ? details : null });
    } else {
      pairStore.set({ state: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  }
}

export function PairStep({ running }: { running: boolean }) {
  const p = useStore(pairStore);
  return (
    <>
      <p>
        The gateway lets a browser-side connection through svc only from a paired device. Pairing approves svc&rsquo;s own request at the
        gateway; requests from other devices are left alone.
      </p>
      {!running && <p className="text-muted">Start the gateway first.</p>}
      <div>
        <button type="button" className="btn btn-primary" disabled={!running || p.state === 'busy'} onClick={() => void pair()}>
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
