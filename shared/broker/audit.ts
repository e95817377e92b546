// The tool audit log (spec "Tool audit row"): one `before` row with the
// decision and one `after` row with the outcome per call. Summaries arrive
// already scrubbed; the list is masked again on the way out by the caller.
import type { Db } from '../db/open.ts';
import { uuidv7 } from '../ids.ts';
import type { ToolAuditRow } from './types.ts';

export const AUDIT_LIMIT_DEFAULT = 100;
export const AUDIT_LIMIT_MAX = 500;

const COLUMNS = `id, tool_name AS toolName, agent_id AS agentId, phase, decision, args_summary AS argsSummary,
  result_summary AS resultSummary, is_error AS isError, tenant_id AS tenantId, created_at AS createdAt`;

export type AuditInput = Omit<ToolAuditRow, 'id' | 'createdAt'>;

export interface AuditStore {
  append(input: AuditInput, now: number): ToolAuditRow;
  list(query: { toolName?: string; limit: number }): ToolAuditRow[];
}

export function createAuditStore(db: Db): AuditStore {
  const insert = db.prepare(
    `INSERT INTO tool_audit (id, tool_name, agent_id, phase, decision, args_summary, result_summary, is_error, tenant_id, created_at)
     VALUES (@id, @toolName, @agentId, @phase, @decision, @argsSummary, @resultSummary, @isError, @tenantId, @createdAt)`,
  );
  // rowid breaks ties inside one millisecond: a call's after row sorts above its before row.
  const all = db.prepare(`SELECT ${COLUMNS} FROM tool_audit ORDER BY created_at DESC, rowid DESC LIMIT ?`);
  const byTool = db.prepare(`SELECT ${COLUMNS} FROM tool_audit WHERE tool_name = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`);
  return {
    append(input, now) {
      const row: ToolAuditRow = { id: uuidv7(now), ...input, createdAt: now };
      insert.run(row);
      return row;
    },
    list: ({ toolName, limit }) => (toolName === undefined ? all.all(limit) : byTool.all(toolName, limit)) as ToolAuditRow[],
  };
}
