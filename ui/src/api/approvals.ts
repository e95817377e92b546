// The tools broker's approvals (GET /api/tools/approvals, POST
// .../:id/resolve), their history from the event log (GET /api/obs/events of
// the approval kinds: GET /api/tools/approvals holds only the decisions), the
// decisions clients reported (GET /api/approvals?source=client), the
// tools (GET /api/tools) and their audit (GET /api/tools/audit). Two key
// roots: ['approvals'] and ['tools']. Pending approvals are polled (every 3 s
// while a page shows them, 10 s for the nav badge; react-query pauses polling
// in hidden tabs and refetches on window focus). What a tab remembers of the
// rows it saw leave the queue is the approvals feature's
// (features/approvals/settled.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { ApprovalDecision, DecisionRecord, EventRow, Tool, ToolApproval, ToolAuditRow } from './types.ts';

export const approvalKeys = {
  all: ['approvals'] as const,
  pending: ['approvals', 'pending'] as const,
  history: ['approvals', 'history'] as const,
  reported: ['approvals', 'reported'] as const,
};

export const toolKeys = {
  all: ['tools'] as const,
  list: ['tools', 'list'] as const,
  audits: ['tools', 'audit'] as const,
  audit: (toolName: string) => ['tools', 'audit', toolName] as const,
};

const fetchPending = () => api<{ ok: true; approvals: ToolApproval[] }>('/api/tools/approvals').then((r) => r.approvals);

/** Pending approvals, polled; `intervalMs` per caller (the shortest observer wins). */
export function usePendingApprovals(intervalMs = 3_000) {
  return useQuery({ queryKey: approvalKeys.pending, queryFn: fetchPending, refetchInterval: intervalMs, refetchOnWindowFocus: true, staleTime: 1_000 });
}

/**
 * Allow once, always allow or deny. The server's row says what happened (a
 * row already resolved elsewhere keeps its first decision; an expired one
 * stays pending): `onResolved` hears it first, then the row leaves the
 * cached queue and the approvals and the audit are read again.
 */
export function useResolveApproval({ onResolved }: { onResolved?: (approval: ToolApproval) => void } = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: ApprovalDecision }) =>
      api<{ ok: true; approval: ToolApproval }>(`/api/tools/approvals/${encodeURIComponent(id)}/resolve`, { method: 'POST', body: { decision } }).then((r) => r.approval),
    onSuccess: (approval) => {
      onResolved?.(approval);
      qc.setQueryData<ToolApproval[]>(approvalKeys.pending, (prev) => prev?.filter((a) => a.id !== approval.id));
      void qc.invalidateQueries({ queryKey: approvalKeys.all });
      void qc.invalidateQueries({ queryKey: toolKeys.audits });
    },
  });
}

/** The approval events of the event log (requested and resolved), newest first: the history tab's source. */
export function useApprovalHistory() {
  return useQuery({
    queryKey: approvalKeys.history,
    queryFn: () => api<{ events: EventRow[] }>('/api/obs/events?kinds=approval_requested,approval_resolved&order=desc&limit=1000').then((r) => r.events),
    refetchInterval: 10_000,
  });
}

/** Decisions clients reported through POST /api/approvals, newest first: svc did not see them taken, and they granted nothing. */
export function useReportedDecisions() {
  return useQuery({
    queryKey: approvalKeys.reported,
    queryFn: () => api<{ ok: true; records: DecisionRecord[] }>('/api/approvals?source=client&limit=200').then((r) => r.records),
    refetchInterval: 10_000,
  });
}

export function useTools() {
  return useQuery({ queryKey: toolKeys.list, queryFn: () => api<{ ok: true; tools: Tool[] }>('/api/tools').then((r) => r.tools), staleTime: 60_000 });
}

export function useToolAudit(toolName: string) {
  const q = toolName.trim() ? `&toolName=${encodeURIComponent(toolName.trim())}` : '';
  return useQuery({
    queryKey: toolKeys.audit(toolName.trim()),
    queryFn: () => api<{ ok: true; audit: ToolAuditRow[] }>(`/api/tools/audit?limit=200${q}`).then((r) => r.audit),
    refetchInterval: 10_000,
  });
}
