// The one place that maps thrown errors to the `{ error }` envelope. Routes
// never catch to reply: they throw (HttpError, DomainError) or let a failure
// propagate, and say in their route config (`errorReply`) how their answers
// differ where the spec gives them another envelope. Parser failures become
// 4xx before any handler runs (413 for a body over 2 MB, 400 for malformed
// JSON or prototype poisoning). An unexpected throw is logged with its stack
// and answered 500 (or the route's status) with a message that holds no SQL:
// a SQLite error reads `database error (SQLITE_…)`, anything else is redacted.
// Work a route stopped because its client went away (client-gone.ts) is no
// failure: one info line, and the answer goes nowhere.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../../shared/log.ts';
import { stripAccessToken, type Redactor } from '../../../shared/redact.ts';
import { DomainError, publicMessageOf, sqliteCodeOf, type DomainErrorKind } from '../../../shared/errors.ts';
import { JOB_ERROR } from '../../../shared/channels/jobs.ts';
import { ClientGoneError, isClientGone } from '../client-gone.ts';
import { HttpError } from '../http-error.ts';

/** How a route's error answers differ from the plain `{ error }` (the spec's exceptions, spec "Errors"). */
export interface ErrorReply {
  /** Fields every error answer of the route carries beside `error`, e.g. `{ ok: false }` on the health routes. */
  fields?: Readonly<Record<string, unknown>>;
  /**
   * An unexpected throw (not an HttpError or DomainError): its status
   * (default 500), the spec's fixed message (default: the cause's, masked and
   * redacted) and extra fields, e.g. `{ skills: [] }`.
   */
  unexpected?: { status?: number; message?: string; fields?: Readonly<Record<string, unknown>> };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The spec's message for a missing or malformed JSON body on this route. */
    badJsonMessage?: string;
    /** The route's own error envelope, where the spec gives one. */
    errorReply?: ErrorReply;
  }
}

/** How a refusal from shared/ domain code reads over HTTP. */
const DOMAIN_STATUS: Readonly<Record<DomainErrorKind, number>> = { invalid: 400, not_found: 404, conflict: 409 };

export const DEFAULT_BAD_JSON_MESSAGE = 'invalid JSON';
export const INTERNAL_ERROR_MESSAGE = 'internal error';

const PARSER_CODES = new Set([
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
]);

/** The code of a thrown value, if it has a string one (a value a pool thread threw can arrive as a plain object). */
function codeOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What a client may read of an unexpected throw: a SQLite error by its code
 * only (shared/errors.ts), any other Error by its redacted message.
 */
function publicMessage(err: unknown, redactor: Redactor): string {
  if (sqliteCodeOf(err) !== null) return publicMessageOf(err);
  const message = err instanceof Error ? err.message : '';
  return message ? redactor.text(message) : INTERNAL_ERROR_MESSAGE;
}

export function registerErrorHandling(app: FastifyInstance, redactor: Redactor, logger: Logger): void {
  // `err` is typed as fastify gives it; at run time it is whatever was thrown.
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const route = req.routeOptions?.config?.errorReply;
    const send = (status: number, error: string, extra?: Readonly<Record<string, unknown>>) =>
      reply.code(status).send({ ...route?.fields, error, ...extra });
    const logFailure = (cause: unknown, message: string) =>
      logger.error({ err: cause, method: req.method, url: stripAccessToken(req.url) }, message);

    if (err instanceof HttpError) {
      // A deliberate 500 (internalError) is still a failure: its cause goes to the log with its stack.
      // Other 5xx (502 gateway refusals, 503 caps) are answers the route chose and logs itself where useful.
      if (err.statusCode === 500) logFailure(err.cause ?? err, `internal error: ${err.message}`);
      return send(err.statusCode, redactor.text(err.message), err.extra);
    }
    if (err instanceof DomainError) {
      return send(DOMAIN_STATUS[err.kind], redactor.text(err.message), err.extra);
    }
    const code = codeOf(err);
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(413, 'request body too large (limit 2 MB)');
    if ((code !== undefined && PARSER_CODES.has(code)) || err instanceof SyntaxError) {
      return send(400, req.routeOptions?.config?.badJsonMessage ?? DEFAULT_BAD_JSON_MESSAGE);
    }
    const message = err instanceof Error ? err.message : '';
    if (/prototype|constructor/i.test(message) && err.statusCode === 400) return send(400, 'forbidden property in JSON body');
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(415, 'unsupported content type');
    const status = err instanceof Error ? err.statusCode : undefined;
    if (status !== undefined && status >= 400 && status < 500) return send(status, redactor.text(message));

    if (isClientGone(reply) && (err instanceof ClientGoneError || code === JOB_ERROR.aborted)) {
      logger.info({ method: req.method, url: stripAccessToken(req.url) }, 'the client went away; the work for its request was stopped');
    } else {
      logFailure(err, 'unhandled error');
    }
    const unexpected = route?.unexpected;
    return send(unexpected?.status ?? 500, unexpected?.message ?? publicMessage(err, redactor), unexpected?.fields);
  });
}
