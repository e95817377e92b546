// The approval queue's rows (spec "Tool approval", "States and transitions →
// Tool approval"). A row is pending until resolved; once resolved it never
// changes again. A pending row past expiresAt counts as expired (a denial):
// it is no longer listed and can no longer be resolved. `toolName` is the
// approval key: a tool name, or another key such as `delegate:<kind>`.
// Resolving takes an operator principal (operator.ts): no agent resolves its
// own approval. A sticky allow_always is held by an agent identity that a
// minted agent token vouched for (agent_token_id), and only such a caller
// can use one.
import { createDecisionHistory } from '../approvals/history.ts';
import type { Db } from '../db/open.ts';
import { uuidv7 } from '../ids.ts';
import { noOperators, OperatorRequiredError, type OperatorCheck } from './operator.ts';
import type { ApprovalDecision, ToolApproval } from './types.ts';

const COLUMNS = `id, tool_name AS toolName, agent_id AS agentId, args_summary AS argsSummary, reason,
  status, task_id AS taskId, tenant_id AS tenantId, created_at AS createdAt, expires_at AS expiresAt,
  resolved_at AS resolvedAt`;

/** Rows the list route returns at most (pending rows are few; this only bounds a runaway). */
export const PENDING_LIST_MAX = 1000;

export interface OpenApproval {
  toolName: string;
  agentId: string | null;
  /** The minted agent token behind agentId, if any (never returned by the routes). */
  agentTokenId: string | null;
  argsSummary: string | null;
  reason: string | null;
  taskId: string | null;
  tenantId: string | null;
  ttlMs: number;
}

export interface ApprovalStore {
  open(input: OpenApproval, now: number): ToolApproval;
  get(id: string): ToolApproval | null;
  listPending(now: number): ToolApproval[];
  /**
   * null when no row has that id; `changed` false when it was already resolved or expired.
   * Throws OperatorRequiredError unless `by` is a principal the store's check accepts.
   */
  resolve(by: unknown, id: string, decision: ApprovalDecision, now: number): { approval: ToolApproval; changed: boolean } | null;
  /** A sticky allow_always for (key, agent). A caller without a minted agent token (or without an agent) never has one. */
  hasStickyAllow(key: string, caller: StickyCaller): boolean;
  /** Ends a pending row's life now (its waiter gave up): it expires instead of lingering in the list. */
  withdraw(id: string, now: number): void;
}

/** Who asks whether a sticky allow_always applies. */
export interface StickyCaller {
  agentId: string | null;
  agentTokenId: string | null;
}

export function createApprovalStore(db: Db, isOperator: OperatorCheck = noOperators): ApprovalStore {
  const insert = db.prepare(
    `INSERT INTO tool_approvals (id, tool_name, agent_id, agent_token_id, args_summary, reason, status, task_id, tenant_id, created_at, expires_at, resolved_at)
     VALUES (@id, @toolName, @agentId, @agentTokenId, @argsSummary, @reason, 'pending', @taskId, @tenantId, @createdAt, @expiresAt, NULL)`,
  );
  const byId = db.prepare(`SELECT ${COLUMNS} FROM tool_approvals WHERE id = ?`);
  const pending = db.prepare(
    `SELECT ${COLUMNS} FROM tool_approvals WHERE status = 'pending' AND expires_at > ?
     ORDER BY created_at DESC, rowid DESC LIMIT ${PENDING_LIST_MAX}`,
  );
  // The update applies only while the row is pending and unexpired: a second
  // resolve, or a late one, changes nothing (spec: "resolve again → unchanged").
  const update = db.prepare(
    `UPDATE tool_approvals SET status = @status, resolved_at = @now
     WHERE id = @id AND status = 'pending' AND expires_at > @now`,
  );
  // Rows without a token (anonymous, or written while the agent id was a
  // query parameter anyone could pick) never count.
  const sticky = db.prepare(
    `SELECT 1 FROM tool_approvals
     WHERE tool_name = ? AND agent_id = ? AND status = 'allow_always' AND agent_token_id IS NOT NULL LIMIT 1`,
  ).pluck();
  const expireNow = db.prepare(`UPDATE tool_approvals SET expires_at = MIN(expires_at, @now) WHERE id = @id AND status = 'pending'`);

  const get = (id: string) => (byId.get(id) as ToolApproval | undefined) ?? null;
  // A resolution and its history row (GET /api/approvals) commit together: the history never misses one.
  const history = createDecisionHistory(db);
  const resolveTx = db.transaction((id: string, decision: ApprovalDecision, now: number) => {
    const changed = update.run({ id, status: decision, now }).changes === 1;
    const approval = get(id);
    if (changed && approval) {
      history.record({ agentId: approval.agentId, toolName: approval.toolName, action: decision, approvalId: id, reason: approval.reason }, now);
    }
    return approval ? { approval, changed } : null;
  });

  return {
    open(input, now) {
      const row: ToolApproval = {
        id: uuidv7(now),
        toolName: input.toolName,
        agentId: input.agentId,
        argsSummary: input.argsSummary,
        reason: input.reason,
        status: 'pending',
        taskId: input.taskId,
        tenantId: input.tenantId,
        createdAt: now,
        expiresAt: now + input.ttlMs,
        resolvedAt: null,
      };
      insert.run({ ...row, agentTokenId: input.agentId === null ? null : input.agentTokenId });
      return row;
    },
    get,
    listPending: (now) => pending.all(now) as ToolApproval[],
    resolve(by, id, decision, now) {
      if (!isOperator(by)) throw new OperatorRequiredError();
      // IMMEDIATE: the write lock is taken at BEGIN (shared/db/tx.ts says why).
      return resolveTx.immediate(id, decision, now);
    },
    hasStickyAllow: (key, { agentId, agentTokenId }) => agentId !== null && agentTokenId !== null && sticky.get(key, agentId) !== undefined,
    withdraw(id, now) {
      expireNow.run({ id, now });
    },
  };
}
