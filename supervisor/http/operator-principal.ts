// The one place that mints operator principals (shared/broker/operator.ts):
// the HTTP routes act for the person at the dashboard, behind the access
// gate when it is on. A principal is a frozen object remembered in a
// WeakSet, so a copy or a look-alike built elsewhere is refused by the
// check the broker is given. Nothing under shared/ imports this file.
import type { OperatorCheck, OperatorPrincipal } from '../../shared/broker/index.ts';

const minted = new WeakSet<object>();

export function operatorPrincipal(via: 'http'): OperatorPrincipal {
  const p: OperatorPrincipal = Object.freeze({ kind: 'operator', via });
  minted.add(p);
  return p;
}

export const isOperatorPrincipal: OperatorCheck = (p: unknown): p is OperatorPrincipal =>
  typeof p === 'object' && p !== null && minted.has(p);
