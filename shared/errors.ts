// Errors that domain code in shared/ throws on purpose. They carry a kind,
// not an HTTP status, so the MCP servers and the team-chat orchestrator can
// map them their own way; the front door maps them in one place
// (supervisor/plugins/errors.ts). Thrown inside a transaction they roll it
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
