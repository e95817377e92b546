// The rows this tab saw leave the approvals queue (resolved here, or
// expired), so a card can show its outcome after the server stops listing
// it, and the shared approvals hook over the polled queue (api/approvals.ts).
// Client state: a store outside React that outlives the page, so a revisit
// still shows them.
import { useEffect, useRef } from 'react';
import { usePendingApprovals } from '../../api/approvals.ts';
import type { ToolApproval } from '../../api/types.ts';
import { createStore, useStore } from '../../lib/store.ts';
import { newlyExpired, type Settled } from './logic.ts';

/** Rows settled in this browser tab (id to outcome), newest last. */
export const settledStore = createStore<ReadonlyMap<string, Settled>>(new Map());

function settle(items: Settled[]): void {
  if (items.length === 0) return;
  settledStore.set((prev) => {
    const next = new Map(prev);
    for (const s of items) next.set(s.approval.id, s);
    return next;
  });
}

/** A row the server answered a resolve with: its decision, or expired when it is still pending. */
export function settleResolved(approval: ToolApproval): void {
  settle([{ approval, outcome: approval.status === 'pending' ? 'expired' : approval.status, at: Date.now() }]);
}

export function dismissSettled(id: string): void {
  settledStore.set((prev) => {
    if (!prev.has(id)) return prev;
    const next = new Map(prev);
    next.delete(id);
    return next;
  });
}

/**
 * The shared approvals hook: the pending list and the rows settled here. It
 * notes a row that left the list after its expiry as expired.
 */
export function useApprovals(intervalMs = 3_000) {
  const pending = usePendingApprovals(intervalMs);
  const settled = useStore(settledStore);
  const last = useRef<ToolApproval[] | null>(null);
  useEffect(() => {
    const next = pending.data;
    if (!next) return;
    if (last.current) settle(newlyExpired(last.current, next, settledStore.get(), Date.now()));
    last.current = next;
  }, [pending.data]);
  return { pending, settled };
}
