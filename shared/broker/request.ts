// Asking a human: the generic approval handshake shared by destructive tool
// calls and, later, the delegation handshake (key `delegate:<kind>`). A
// sticky allow_always for (key, agent) answers at once; otherwise a pending
// row is opened (TTL SVC_APPROVAL_TTL_MS) and the caller waits on it. Only
// an agent vouched for by a minted token (agentTokenId) can hold or use a
// sticky allow_always; anyone else is asked every time.
import type { EventLog } from '../events/event-log.ts';
import type { Logger } from '../log.ts';
import type { ApprovalStore } from './approvals.ts';
import { summarizeArgs } from './scrub.ts';
import type { ToolApproval } from './types.ts';
import type { ApprovalWaiter, WaitStatus } from './waiter.ts';

export interface ApprovalRequest {
  /** A tool name or another approval key, e.g. `delegate:<kind>`. */
  key: string;
  agentId: string | null;
  /** The minted agent token behind agentId (see CallContext); without one no sticky allow_always applies. */
  agentTokenId?: string | null;
  /** Stored as given when a string (already scrubbed); anything else is scrubbed here. */
  argsSummary?: unknown;
  reason?: string | null;
  taskId?: string | null;
  tenantId?: string | null;
  signal?: AbortSignal;
  /** Stop waiting after this many ms (status `timeout`). */
  deadlineMs?: number;
  /** Defaults to the configured approval TTL. */
  ttlMs?: number;
  /** The caller already checked stickiness (the tool pipeline does, to pick its decision). */
  skipSticky?: boolean;
}

export interface ApprovalRequestOutcome {
  status: WaitStatus;
  /** The row that was opened (null when a sticky allow_always answered). */
  approval: ToolApproval | null;
  /** True when a prior allow_always answered without a prompt. */
  sticky: boolean;
}

export function createApprovalRequester(d: {
  store: ApprovalStore;
  waiter: ApprovalWaiter;
  eventLog: EventLog;
  logger: Logger;
  now: () => number;
  ttlMs: number;
}) {
  const mirror = (kind: 'approval_requested' | 'approval_resolved', a: ToolApproval) => {
    try {
      d.eventLog.append({ kind, agentId: a.agentId, taskId: a.taskId, tenantId: a.tenantId, correlationId: a.id, data: { approvalId: a.id, toolName: a.toolName, status: a.status } });
    } catch (err) {
      d.logger.warn({ err, kind }, 'broker: approval event mirror failed; the approval row is the record');
    }
  };

  return {
    mirrorResolved: (a: ToolApproval) => mirror('approval_resolved', a),
    async request(req: ApprovalRequest): Promise<ApprovalRequestOutcome> {
      const agentTokenId = req.agentId === null ? null : (req.agentTokenId ?? null);
      if (!req.skipSticky && d.store.hasStickyAllow(req.key, { agentId: req.agentId, agentTokenId })) return { status: 'allow_always', approval: null, sticky: true };
      const approval = d.store.open(
        {
          toolName: req.key,
          agentId: req.agentId,
          agentTokenId,
          argsSummary: typeof req.argsSummary === 'string' || req.argsSummary === null ? req.argsSummary : summarizeArgs(req.argsSummary),
          reason: req.reason ?? null,
          taskId: req.taskId ?? null,
          tenantId: req.tenantId ?? null,
          ttlMs: req.ttlMs ?? d.ttlMs,
        },
        d.now(),
      );
      mirror('approval_requested', approval);
      const outcome = await d.waiter.wait(approval.id, { signal: req.signal, deadlineMs: req.deadlineMs });
      // Nobody waits any more: the row expires now rather than asking a human for nothing.
      if (outcome.status === 'cancelled' || outcome.status === 'timeout') d.store.withdraw(approval.id, d.now());
      return { status: outcome.status, approval: outcome.approval ?? approval, sticky: false };
    },
  };
}
