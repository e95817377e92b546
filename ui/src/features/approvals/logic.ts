// Pure logic of the approvals UI: the countdown text, what a card may do,
// the decision labels, risk lookup, the settled-rows reducer and the history
// fold over the event log. No React, no DOM: unit-tested under node:test.
import type { ApprovalDecision, EventRow, Tool, ToolApproval } from '../../api/types.ts';

/** "4:05" under an hour, "1:02:03" above; "0:00" once passed. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** What the person can read from the countdown, e.g. "expires in 4:05". */
export function countdownText(expiresAt: number, now: number): string {
  return expiresAt <= now ? 'expired' : `expires in ${formatCountdown(expiresAt - now)}`;
}

export type CardState = { kind: 'pending' } | { kind: 'expired' } | { kind: 'resolved'; decision: ApprovalDecision };

/** Pending until resolved; a pending row past its expiry is expired and no longer resolvable. */
export function cardState(a: Pick<ToolApproval, 'status' | 'expiresAt'>, now: number): CardState {
  if (a.status !== 'pending') return { kind: 'resolved', decision: a.status };
  return a.expiresAt <= now ? { kind: 'expired' } : { kind: 'pending' };
}

export const DECISION_LABEL: Record<ApprovalDecision, string> = {
  allow_once: 'Allowed once',
  allow_always: 'Always allowed',
  deny: 'Denied',
};

/** The risk of the tool an approval is for; approval keys that are not tools (`delegate:<kind>`) say what they are. */
export function riskOf(toolName: string, tools: readonly Pick<Tool, 'name' | 'risk'>[] | undefined): string {
  if (toolName.startsWith('delegate:')) return 'delegation';
  return tools?.find((t) => t.name === toolName)?.risk ?? 'unknown';
}

/** Masked argument text, pretty-printed when it is JSON. */
export function prettyArgs(summary: string | null): string {
  if (summary === null || summary === '') return '(no arguments)';
  try {
    return JSON.stringify(JSON.parse(summary), null, 2);
  } catch {
    // Not JSON (a clipped summary): show it as the server sent it.
    return summary;
  }
}

/** A row that left the pending list while this page watched it: resolved here, or expired. */
export interface Settled {
  approval: ToolApproval;
  outcome: ApprovalDecision | 'expired';
  at: number;
}

/**
 * Rows that were pending on the last read and are gone from this one, past
 * their expiry and not resolved here: they expired (the server no longer
 * lists them). Returns the additions to the settled map.
 */
export function newlyExpired(prev: readonly ToolApproval[], next: readonly ToolApproval[], settled: ReadonlyMap<string, Settled>, now: number): Settled[] {
  const still = new Set(next.map((a) => a.id));
  return prev.filter((a) => !still.has(a.id) && !settled.has(a.id) && a.expiresAt <= now).map((a) => ({ approval: a, outcome: 'expired', at: now }));
}

/** The approvals of one team: rows whose agent is a member of it, or its leader. */
export function teamApprovals(all: readonly ToolApproval[], teamId: string, assignments: readonly { agentId: string; teamId: string }[], leaderAgentId: string | null): ToolApproval[] {
  const members = new Set(assignments.filter((x) => x.teamId === teamId).map((x) => x.agentId));
  if (leaderAgentId) members.add(leaderAgentId);
  return all.filter((a) => a.agentId !== null && members.has(a.agentId));
}

export type HistoryOutcome = ApprovalDecision | 'pending' | 'expired';

export interface HistoryRow {
  approvalId: string;
  toolName: string;
  agentId: string | null;
  requestedAt: number | null;
  resolvedAt: number | null;
  outcome: HistoryOutcome;
}

function dataOf(e: Pick<EventRow, 'data'>): { approvalId?: unknown; toolName?: unknown; status?: unknown } {
  try {
    const d: unknown = JSON.parse(e.data);
    return typeof d === 'object' && d !== null ? d : {};
  } catch {
    // A row whose data does not parse has no approval to show.
    return {};
  }
}

const DECISIONS = new Set<string>(['allow_once', 'allow_always', 'deny']);

/**
 * The approval history from the event log's `approval_requested` and
 * `approval_resolved` rows (any order), newest request first. A request with
 * no resolution is pending while the queue still lists it, else it expired
 * (or its caller gave up, which ends it the same way).
 */
export function foldHistory(events: readonly Pick<EventRow, 'kind' | 'ts' | 'agentId' | 'data'>[], pendingIds: ReadonlySet<string>): HistoryRow[] {
  const rows = new Map<string, HistoryRow>();
  const get = (id: string, toolName: string, agentId: string | null): HistoryRow => {
    let r = rows.get(id);
    if (!r) {
      r = { approvalId: id, toolName, agentId, requestedAt: null, resolvedAt: null, outcome: 'expired' };
      rows.set(id, r);
    }
    return r;
  };
  for (const e of events) {
    if (e.kind !== 'approval_requested' && e.kind !== 'approval_resolved') continue;
    const d = dataOf(e);
    if (typeof d.approvalId !== 'string') continue;
    const r = get(d.approvalId, typeof d.toolName === 'string' ? d.toolName : '?', e.agentId);
    if (e.kind === 'approval_requested') r.requestedAt = e.ts;
    else if (typeof d.status === 'string' && DECISIONS.has(d.status)) {
      r.resolvedAt = e.ts;
      r.outcome = d.status as ApprovalDecision;
    }
  }
  for (const r of rows.values()) if (r.resolvedAt === null && pendingIds.has(r.approvalId)) r.outcome = 'pending';
  return [...rows.values()].sort((a, b) => (b.requestedAt ?? b.resolvedAt ?? 0) - (a.requestedAt ?? a.resolvedAt ?? 0));
}

export const OUTCOME_LABEL: Record<HistoryOutcome, string> = { ...DECISION_LABEL, pending: 'Pending', expired: 'Expired' };

/** Local time as "HH:MM:SS" today, else the date and time. */
export function formatTime(ts: number, now: number = Date.now()): string {
  const d = new Date(ts);
  const sameDay = new Date(now).toDateString() === d.toDateString();
  return sameDay ? d.toLocaleTimeString() : d.toLocaleString();
}
