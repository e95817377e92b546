// The approvals feature's server state: query keys, one hook per read, the
// resolve mutation, and the store of rows settled while the page watched
// them (resolved here, or expired), so a card can show its outcome after the
// server stops listing it. Pending approvals are polled (every 3 s while a
// page shows them, 10 s for the nav badge; react-query pauses polling in
// hidden tabs and refetches on window focus).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../api/client.ts';
import type { ApprovalDecision, EventRow, Tool, ToolApproval, ToolAuditRow } from '../../api/types.ts';
import { createStore, useStore } from '../../lib/store.ts';
import { newlyExpired, type Settled } from './logic.ts';

export const approvalKeys = {
  all: ['approvals'] as const,
  pending: ['approvals', 'pending'] as const,
  history: ['approvals', 'history'] as const,
  tools: ['tools'] as const,
  audit: (toolName: string) => ['tools', 'audit', toolName] as const,
};

/** Rows settled in this browser tab (id to outcome), newest last. Outlives the page so a revisit still shows them. */
export const settledStore = createStore<ReadonlyMap<string, Settled>>(new Map());

function settle(items: Settled[]): void {
  if (items.length === 0) return;
  settledStore.set((prev) => {
    const next = new Map(prev);
    for (const s of items) next.set(s.approval.id, s);
    return next;
  });
}

export function dismissSettled(id: string): void {
  settledStore.set((prev) => {
    if (!prev.has(id)) return prev;
    const next = new Map(prev);
    next.delete(id);
    return next;
  });
}

const fetchPending = () => api<{ ok: true; approvals: ToolApproval[] }>('/api/tools/approvals').then((r) => r.approvals);

/** Pending approvals (GET /api/tools/approvals), polled; `intervalMs` per caller (the shortest observer wins). */
export function usePendingApprovals(intervalMs = 3_000) {
  return useQuery({ queryKey: approvalKeys.pending, queryFn: fetchPending, refetchInterval: intervalMs, refetchOnWindowFocus: true, staleTime: 1_000 });
}

/**
 * The shared approvals hook: the pending list, the rows settled here, and
 * resolve. It notes a row that left the list after its expiry as expired.
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
  const resolve = useResolveApproval();
  return { pending, settled, resolve };
}

export function useResolveApproval() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: ApprovalDecision }) =>
      api<{ ok: true; approval: ToolApproval }>(`/api/tools/approvals/${encodeURIComponent(id)}/resolve`, { method: 'POST', body: { decision } }).then((r) => r.approval),
    onSuccess: (approval) => {
      // The server's row says what happened (a row already resolved elsewhere keeps its first decision; an expired one stays pending).
      settle([{ approval, outcome: approval.status === 'pending' ? 'expired' : approval.status, at: Date.now() }]);
      qc.setQueryData<ToolApproval[]>(approvalKeys.pending, (prev) => prev?.filter((a) => a.id !== approval.id));
      void qc.invalidateQueries({ queryKey: approvalKeys.all });
      void qc.invalidateQueries({ queryKey: ['tools', 'audit'] });
    },
  });
}

export function useTools() {
  return useQuery({ queryKey: approvalKeys.tools, queryFn: () => api<{ ok: true; tools: Tool[] }>('/api/tools').then((r) => r.tools), staleTime: 60_000 });
}

/** The approval events of the event log (requested and resolved), newest first: the history tab's source. */
export function useApprovalHistory() {
  return useQuery({
    queryKey: approvalKeys.history,
    queryFn: () => api<{ events: EventRow[] }>('/api/obs/events?kinds=approval_requested,approval_resolved&order=desc&limit=1000').then((r) => r.events),
    refetchInterval: 10_000,
  });
}

export function useToolAudit(toolName: string) {
  const q = toolName.trim() ? `&toolName=${encodeURIComponent(toolName.trim())}` : '';
  return useQuery({
    queryKey: approvalKeys.audit(toolName.trim()),
    queryFn: () => api<{ ok: true; audit: ToolAuditRow[] }>(`/api/tools/audit?limit=200${q}`).then((r) => r.audit),
    refetchInterval: 10_000,
  });
}
