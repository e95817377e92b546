// The access gate as the dashboard sees it: once an /api call was refused by
// the gate (`401 { error, service: 'svc' }`), the shell renders the access
// page (ui/src/pages/access) instead of the app.
import { createStore } from '../lib/store.ts';

/** Set once an /api call was refused by the access gate. */
export const gateStore = createStore<{ locked: boolean }>({ locked: false });

export function isGateRefusal(status: number, body: unknown): boolean {
  return (
    status === 401 &&
    typeof body === 'object' &&
    body !== null &&
    (body as { service?: unknown }).service === 'svc' &&
    typeof (body as { error?: unknown }).error === 'string'
  );
}
