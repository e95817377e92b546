// Migration 14: the approval-decision history (spec "Governance": GET/POST
// /api/approvals, "decision history from a separate table"). Every resolved
// tool approval writes one row here, and a client may record a decision it
// took elsewhere; rows are never updated.
import type { Migration } from '../migration.ts';

export const migration0014: Migration = {
  version: 14,
  name: 'approval decision history',
  sql: `
    CREATE TABLE approval_decisions (
      id TEXT PRIMARY KEY,
      agent_id TEXT,
      tool_name TEXT NOT NULL,
      action TEXT NOT NULL,
      approval_id TEXT,
      reason TEXT,
      created_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX approval_decisions_created ON approval_decisions (created_at DESC, id DESC);
  `,
};
