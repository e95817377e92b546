// The approval queue's rows (spec "Tool approval", "States and transitions →
// Tool approval"). A row is pending until resolved; once resolved it never
// changes again. A pending row past expiresAt counts as expired (a denial):
// it is no longer listed and can no longer be resolved. `toolName` is the
// approval key: a tool name, or another key such as `delegate:<kind>`.
import type { Db } from '../db/open.ts';
import { uuidv7 } from '../ids.ts';
import type { ApprovalDecision, ToolApproval } from './types.ts';

const COLUMNS = `id, tool_name AS toolName, agent_id AS agentId, args_summary AS argsSummary, reason,
  status, task_id AS taskId, tenant_id AS tenantId, created_at AS createdAt, expires_at AS expiresAt,
  resolved_at AS resolvedAt`;

/** Rows the list route returns at most (pending rows are few; this only bounds a runaway). */
export const PENDING_LIST_MAX = 1000;

export interface OpenApproval {
  toolName: string;
  agentId: string | null;
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
  /** null when no row has that id; `changed` false when it was already resolved or expired. */
  resolve(id: string, decision: ApprovalDecision, now: number): { approval: ToolApproval; changed: boolean } | null;
  /** A sticky allow_always for (key, agent). An anonymous caller (null agent) never has one. */
  hasStickyAllow(key: string, agentId: string | null): boolean;
  /** Ends a pending row's life now (its waiter gave up): it expires instead of lingering in the list. */
  withdraw(id: string, now: number): void;
}

export function createApprovalStore(db: Db): ApprovalStore {
  const insert = db.prepare(
    `INSERT INTO tool_approvals (id, tool_name, agent_id, args_summary, reason, status, task_id, tenant_id, created_at, expires_at, resolved_at)
     VALUES (@id, @toolName, @agentId, @argsSummary, @reason, 'pending', @taskId, @tenantId, @createdAt, @expiresAt, NULL)`,
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
  const sticky = db.prepare(
    `SELECT 1 FROM tool_approvals WHERE tool_name = ? AND agent_id = ? AND status = 'allow_always' LIMIT 1`,
  ).pluck();
  const expireNow = db.prepare(`UPDATE tool_approvals SET expires_at = MIN(expires_at, @now) WHERE id = @id AND status = 'pending'`);

  const get = (id: string) => (byId.get(id) as ToolApproval | undefined) ?? null;

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
      insert.run(row);
      return row;
    },
    get,
    listPending: (now) => pending.all(now) as ToolApproval[],
    resolve(id, decision, now) {
      const changed = update.run({ id, status: decision, now }).changes === 1;
      const approval = get(id);
      return approval ? { approval, changed } : null;
    },
    hasStickyAllow: (key, agentId) => agentId !== null && sticky.get(key, agentId) !== undefined,
    withdraw(id, now) {
      expireNow.run({ id, now });
    },
  };
}
