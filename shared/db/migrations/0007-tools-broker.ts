// Migration 7: the tools broker's approval queue and audit log (spec "Tool
// approval", "Tool audit row"). tool_name in tool_approvals also holds other
// approval keys (e.g. `delegate:<kind>` for the delegation handshake), so a
// sticky allow_always is one row per (key, agent).
import type { Migration } from '../migration.ts';

export const migration0007: Migration = {
  version: 7,
  name: 'tools broker: approvals and audit',
  sql: `
    CREATE TABLE tool_approvals (
      id TEXT PRIMARY KEY,
      tool_name TEXT NOT NULL,
      agent_id TEXT,
      args_summary TEXT,
      reason TEXT,
      status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'allow_once', 'allow_always', 'deny')),
      task_id TEXT,
      tenant_id TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      resolved_at INTEGER
    );
    -- The list route: pending rows, newest first.
    CREATE INDEX tool_approvals_pending ON tool_approvals (created_at) WHERE status = 'pending';
    -- The sticky lookup: does (key, agent) hold an allow_always?
    CREATE INDEX tool_approvals_sticky ON tool_approvals (tool_name, agent_id) WHERE status = 'allow_always';

    CREATE TABLE tool_audit (
      id TEXT PRIMARY KEY,
      tool_name TEXT NOT NULL,
      agent_id TEXT,
      phase TEXT NOT NULL CHECK (phase IN ('before', 'after')),
      decision TEXT,
      args_summary TEXT,
      result_summary TEXT,
      is_error INTEGER NOT NULL DEFAULT 0 CHECK (is_error IN (0, 1)),
      tenant_id TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX tool_audit_created ON tool_audit (created_at);
    CREATE INDEX tool_audit_tool ON tool_audit (tool_name, created_at);
  `,
};
