// The governance forensic audit log (spec "Governance" → GET
// /api/governance/audit): append-only rows of installs, blocked installs,
// approvals, tool calls, budget events, cap hits, verifications and circuit
// breaks. The table's triggers refuse UPDATE and DELETE, so append-only is a
// property of the database, not of this code. Subject, summary and data are
// masked when written AND when read: a row written by an older build, or by
// a writer that forgot, still never shows a secret.
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import { uuidv7 } from '../ids.ts';
import { maskData, maskText } from '../redact.ts';

export const AUDIT_KINDS = ['install', 'install_blocked', 'approval', 'tool_call', 'budget', 'cap_hit', 'verification', 'circuit_break'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_LIMIT = { min: 1, max: 500, default: 100 } as const;

export interface AuditEntry {
  kind: AuditKind;
  agentId?: string | null;
  /** What the event is about (a skill, a tool, a budget scope); short. */
  subject?: string | null;
  summary: string;
  /** Structured detail; stored as JSON after maskData. */
  data?: Record<string, unknown>;
}

export interface AuditRow {
  /** The cursor: strictly increasing, never reused. */
  seq: number;
  id: string;
  ts: number;
  /** One of AUDIT_KINDS for rows svc writes; read back as stored. */
  kind: string;
  agentId: string | null;
  subject: string | null;
  summary: string;
  /** null when the stored JSON does not parse (the row cannot be repaired: the table is append-only). */
  data: unknown;
}

// The query string as the route gets it: a wrong-typed parameter falls back
// to its default rather than failing the read (a forensic read must not 400
// on a stray parameter, and must never 500 on one).
const text = z.string().trim().min(1);
const number = text.pipe(z.coerce.number());
export const AuditQuerySchema = z
  .object({
    kind: text.optional().catch(undefined),
    agentId: text.optional().catch(undefined),
    /** Clamped to AUDIT_LIMIT. */
    limit: number.optional().catch(undefined),
    /** Only rows with seq below this (the next page of a newest-first read). */
    before: number.pipe(z.number().int().positive()).optional().catch(undefined),
  })
  .catch({});
/** What AuditLog.list reads: the parsed query string, or the same fields from code. */
export type AuditQuery = z.output<typeof AuditQuerySchema>;

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return AUDIT_LIMIT.default;
  return Math.min(AUDIT_LIMIT.max, Math.max(AUDIT_LIMIT.min, Math.trunc(limit)));
}

export interface AuditLog {
  /** Appends one masked row; call inside the caller's transaction so the row and its effect commit together. */
  append(entry: AuditEntry): AuditRow;
  /** Newest first. */
  list(query?: AuditQuery): AuditRow[];
}

/** A row as SQLite returns it: data still JSON text. */
type StoredRow = Omit<AuditRow, 'data'> & { data: string };

function parseData(text: string): unknown {
  try {
    return maskData(JSON.parse(text));
  } catch {
    // Only svc writes this column, as JSON; a row that does not parse is
    // damage we cannot repair (append-only), so it reads as null rather than
    // failing the whole forensic read.
    return null;
  }
}

const maskOrNull = (s: string | null | undefined) => (s === null || s === undefined ? null : maskText(s));

export function createAuditLog(db: Db, now: () => number = Date.now): AuditLog {
  const insert = db.prepare(
    `INSERT INTO governance_audit (id, ts, kind, agent_id, subject, summary, data)
     VALUES (@id, @ts, @kind, @agentId, @subject, @summary, @data)`,
  );
  const select = db.prepare(
    `SELECT seq, id, ts, kind, agent_id AS agentId, subject, summary, data FROM governance_audit
     WHERE (@kind IS NULL OR kind = @kind) AND (@agentId IS NULL OR agent_id = @agentId) AND (@before IS NULL OR seq < @before)
     ORDER BY seq DESC LIMIT @limit`,
  );
  const toRow = (r: StoredRow): AuditRow => ({ ...r, subject: maskOrNull(r.subject), summary: maskText(r.summary), data: parseData(r.data) });
  return {
    append(entry) {
      const stored = {
        id: uuidv7(),
        ts: now(),
        kind: entry.kind,
        agentId: entry.agentId ?? null,
        subject: maskOrNull(entry.subject),
        summary: maskText(entry.summary),
        data: JSON.stringify(maskData(entry.data ?? {})),
      };
      const seq = Number(insert.run(stored).lastInsertRowid);
      return toRow({ seq, ...stored });
    },
    list(query = {}) {
      const rows = select.all({
        kind: query.kind ?? null,
        agentId: query.agentId ?? null,
        before: query.before ?? null,
        limit: clampLimit(query.limit),
      }) as StoredRow[];
      return rows.map(toRow);
    },
  };
}
