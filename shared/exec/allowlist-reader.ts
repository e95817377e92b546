// Reads the gateway's exec approvals document straight from its state
// database, read-only, never through the gateway: the gateway's own read call
// (exec.approvals.get) rewrites the policy. The three outcomes the spec keeps
// apart: `ok` (a document; it may hold no grants), `absent` (no document on
// this machine: no file, no table or no row) and `unreadable` (a file that
// exists but cannot be opened, queried or parsed).
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { ApprovalsDocumentSchema, ConfigRowCountsSchema, type AgentBucket } from './schemas.ts';

export const CONFIG_TABLE = 'exec_approvals_config';
export const CONFIG_KEY = 'current';
/** How long a read waits on the gateway's write lock before it counts as unreadable. */
const BUSY_TIMEOUT_MS = 2000;

/** Document-wide counts: agent buckets and allowlist rows, and when the gateway saved them. */
export interface DocumentCounts {
  agents: number;
  entries: number;
  savedAtMs: number;
}

export type UnreadableReason = 'open-failed' | 'query-failed' | 'invalid-json' | 'invalid-document';

export type DocumentRead =
  | { state: 'ok'; agents: Record<string, AgentBucket>; counts: DocumentCounts }
  | { state: 'absent'; reason: 'no-database' | 'no-table' | 'no-row' }
  /** `rowCounts`: the gateway's projection columns of its last successful save, when the row itself could be read. */
  | { state: 'unreadable'; reason: UnreadableReason; detail: string; rowCounts: DocumentCounts | null };

interface RawRow {
  raw_json: unknown;
  agent_count: unknown;
  allowlist_count: unknown;
  updated_at_ms: unknown;
}

const errorCode = (err: unknown) =>
  typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : (err as Error).name || 'Error';

function rowCounts(row: RawRow): DocumentCounts | null {
  const r = ConfigRowCountsSchema.safeParse(row);
  return r.success ? { agents: r.data.agent_count, entries: r.data.allowlist_count, savedAtMs: r.data.updated_at_ms } : null;
}

/** Opens `stateDb` read-only (fileMustExist), reads the one `current` row, closes it. */
export function readApprovalsDocument(stateDb: string): DocumentRead {
  if (!existsSync(stateDb)) return { state: 'absent', reason: 'no-database' };
  let db: Database.Database;
  try {
    db = new Database(stateDb, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    return { state: 'unreadable', reason: 'open-failed', detail: errorCode(err), rowCounts: null };
  }
  let row: RawRow | undefined;
  try {
    // The first statement is where SQLite notices a file that is not a database.
    const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(CONFIG_TABLE);
    if (!table) return { state: 'absent', reason: 'no-table' };
    row = db
      .prepare(`SELECT raw_json, agent_count, allowlist_count, updated_at_ms FROM ${CONFIG_TABLE} WHERE config_key = ?`)
      .get(CONFIG_KEY) as RawRow | undefined;
  } catch (err) {
    return { state: 'unreadable', reason: 'query-failed', detail: errorCode(err), rowCounts: null };
  } finally {
    db.close();
  }
  if (!row) return { state: 'absent', reason: 'no-row' };

  const counts = rowCounts(row);
  let json: unknown;
  try {
    json = JSON.parse(String(row.raw_json));
  } catch (err) {
    return { state: 'unreadable', reason: 'invalid-json', detail: errorCode(err), rowCounts: counts };
  }
  const doc = ApprovalsDocumentSchema.safeParse(json);
  if (!doc.success) {
    // The issue path names fields only, never values (the socket token lives in this document).
    const path = doc.error.issues[0]?.path.join('.') || 'document';
    return { state: 'unreadable', reason: 'invalid-document', detail: `invalid at ${path}`, rowCounts: counts };
  }
  const agents = doc.data.agents ?? {};
  const entries = Object.values(agents).reduce((n, b) => n + (b.allowlist?.length ?? 0), 0);
  return {
    state: 'ok',
    agents,
    counts: { agents: Object.keys(agents).length, entries, savedAtMs: counts?.savedAtMs ?? 0 },
  };
}
