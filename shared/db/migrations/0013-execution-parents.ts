// Migration 13 (issue 23, native delegation): an executions row names the
// row it came from. A child run a `sessions_spawn` started points at the
// parent's run, and the lead's announce run (continuing with the child's
// result) points at the child's run; svc's own runs have no parent.
import type { Migration } from '../migration.ts';

export const migration0013: Migration = {
  version: 13,
  name: 'execution parents',
  sql: `
    ALTER TABLE executions ADD COLUMN parent_execution_id TEXT;
    CREATE INDEX executions_parent ON executions (parent_execution_id) WHERE parent_execution_id IS NOT NULL;
    CREATE INDEX executions_run ON executions (run_id) WHERE run_id IS NOT NULL;
  `,
};
