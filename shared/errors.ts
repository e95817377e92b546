// Errors that domain code in shared/ throws on purpose. They carry a kind,
// not an HTTP status, so the MCP servers and the team-chat orchestrator can
// map them their own way; the front door maps them in one place
// (supervisor/http/plugins/errors.ts). Thrown inside a transaction they roll it
// back, so a refused multi-step change leaves nothing half-written.
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    // No stack: a DomainError is an expected refusal, answered as a 4xx and
    // never logged with a trace, and capturing one cost a visible share of a
    // refused board claim.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, extra?: Record<string, unknown>) => new DomainError('invalid', message, extra);
export const notFound = (message: string, extra?: Record<string, unknown>) => new DomainError('not_found', message, extra);
export const conflict = (message: string, extra?: Record<string, unknown>) => new DomainError('conflict', message, extra);

/** The message of a caught value: an Error's own, anything else as a string (a thrown string, a cloned object). */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * The SQLite result code of a caught value (`SQLITE_…`): better-sqlite3's
 * SqliteError, or such an error cloned across a thread (a plain object that
 * kept its `code`). Null for anything else.
 */
export function sqliteCodeOf(err: unknown): string | null {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

/**
 * What may be shown outside the process of a caught value: a SQLite error by
 * its code only (its message can quote SQL, table and column names), anything
 * else by its message (still to be redacted by whoever shows it). For a
 * failure that crosses a thread or reaches a client; logs keep the error itself.
 */
export function publicMessageOf(err: unknown): string {
  const code = sqliteCodeOf(err);
  return code === null ? messageOf(err) : `database error (${code})`;
}
