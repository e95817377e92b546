// Migration 10: agent tokens (issue 15 #6). svc mints an opaque token for an
// agent and keeps only its SHA-256 with the fields it binds: the agent, and
// optionally a team, task and tenant. `purpose` says what the token is for:
// 'mcp' (an MCP session's identity) today; per-agent model tokens can reuse
// the table with their own purpose. tool_approvals gains the token that
// vouched for the asking agent: a sticky allow_always counts only on rows
// whose agent identity came from a minted token, so rows written while the
// identity was a query parameter anyone could choose never answer for it.
import type { Migration } from '../migration.ts';

export const migration0010: Migration = {
  version: 10,
  name: 'agent tokens; approvals remember the token behind their agent',
  sql: `
    CREATE TABLE agent_tokens (
      id TEXT PRIMARY KEY,
      token_sha256 TEXT NOT NULL UNIQUE,
      purpose TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      team_id TEXT,
      task_id TEXT,
      tenant_id TEXT,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER
    );
    CREATE INDEX agent_tokens_agent ON agent_tokens (agent_id, created_at);

    ALTER TABLE tool_approvals ADD COLUMN agent_token_id TEXT;
    DROP INDEX tool_approvals_sticky;
    CREATE INDEX tool_approvals_sticky ON tool_approvals (tool_name, agent_id)
      WHERE status = 'allow_always' AND agent_token_id IS NOT NULL;
  `,
};
