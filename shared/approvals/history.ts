// The approval-decision history table (migration 14): append and read, newest
// first. The tool approval store appends a row when it resolves one
// (shared/broker/approvals.ts); POST /api/approvals appends a client's. A
// record says which it is (`source`, from whether it names an approval).
import type { Db } from '../db/open.ts';
import { uuidv7 } from '../ids.ts';
import { sourceOf, type DecisionQuery, type DecisionRecord } from './schemas.ts';

export interface DecisionHistory {
  record(input: Omit<DecisionRecord, 'id' | 'createdAt' | 'source'>, now: number): DecisionRecord;
  list(q: DecisionQuery): DecisionRecord[];
}

const COLUMNS = `id, agent_id AS agentId, tool_name AS toolName, action, approval_id AS approvalId, reason, created_at AS createdAt`;

export function createDecisionHistory(db: Db): DecisionHistory {
  const insert = db.prepare(
    `INSERT INTO approval_decisions (id, agent_id, tool_name, action, approval_id, reason, created_at)
     VALUES (@id, @agentId, @toolName, @action, @approvalId, @reason, @createdAt)`,
  );
  const list = db.prepare(
    `SELECT ${COLUMNS} FROM approval_decisions
     WHERE (@agentId IS NULL OR agent_id = @agentId) AND (@toolName IS NULL OR tool_name = @toolName)
       AND (@source IS NULL OR (approval_id IS NULL) = (@source = 'client'))
     ORDER BY created_at DESC, id DESC LIMIT @limit`,
  );
  return {
    record(input, now) {
      const row = { ...input, id: uuidv7(now), createdAt: now };
      insert.run(row);
      return { ...row, source: sourceOf(row.approvalId) };
    },
    list: (q) =>
      (list.all({ agentId: q.agentId ?? null, toolName: q.toolName ?? null, source: q.source ?? null, limit: q.limit }) as Array<Omit<DecisionRecord, 'source'>>).map(
        (r) => ({ ...r, source: sourceOf(r.approvalId) }),
      ),
  };
}
