// Errors a route throws on purpose: the status, the spec's message and any
// extra fields of the envelope. The one error handler (plugins/errors.ts)
// turns them into replies, and logs a 500 with its cause.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);

/**
 * A 500 with the spec's fixed message (never the cause's text, which may hold
 * SQL or a path). Pass the caught error as `cause`: the error handler logs it
 * with its stack.
 */
export const internalError = (message: string, extra?: Record<string, unknown>, options?: { cause?: unknown }) =>
  new HttpError(500, message, extra, options);
