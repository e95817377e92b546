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
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, extra?: Record<string, unknown>) => new DomainError('invalid', message, extra);
export const notFound = (message: string, extra?: Record<string, unknown>) => new DomainError('not_found', message, extra);
export const conflict = (message: string, extra?: Record<string, unknown>) => new DomainError('conflict', message, extra);
