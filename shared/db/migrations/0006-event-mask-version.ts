// Migration 6: events remember which masking rules their data went through
// (shared/redact.ts MASK_RULES_VERSION; read by shared/obs/rows.ts).
import type { Migration } from '../migration.ts';

export const migration0006: Migration = {
  version: 6,
  name: 'events remember which masking rules their data went through',
  sql: `
    -- MASK_RULES_VERSION (shared/redact.ts) of the rules that masked data on
    -- write; 0 for rows from writers that did not say (older builds). A read
    -- re-masks only rows whose version is not the current one: the second
    -- pass was 60 % of a 500-row feed read. ADD COLUMN with a constant
    -- default rewrites nothing, however long the log.
    ALTER TABLE events ADD COLUMN mask_version INTEGER NOT NULL DEFAULT 0;
  `,
};
