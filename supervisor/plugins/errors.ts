// The one place that maps thrown errors to the `{ error }` envelope.
// Parser failures become 4xx before any handler runs (413 for a body over
// 2 MB, 400 for malformed JSON or prototype poisoning); an unexpected throw
// is a 500 whose message is redacted and whose stack goes to the log only.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../shared/log.ts';
import { stripAccessToken, type Redactor } from '../../shared/redact.ts';
import { DomainError, type DomainErrorKind } from '../../shared/errors.ts';
import { HttpError } from '../http-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The spec's message for a missing or malformed JSON body on this route. */
    badJsonMessage?: string;
  }
}

/** How a refusal from shared/ domain code reads over HTTP. */
const DOMAIN_STATUS: Readonly<Record<DomainErrorKind, number>> = { invalid: 400, not_found: 404, conflict: 409 };

export const DEFAULT_BAD_JSON_MESSAGE = 'invalid JSON';

const PARSER_CODES = new Set([
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
]);

function badJsonMessage(req: FastifyRequest): string {
  return req.routeOptions?.config?.badJsonMessage ?? DEFAULT_BAD_JSON_MESSAGE;
}

export function registerErrorHandling(app: FastifyInstance, redactor: Redactor, logger: Logger): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).send({ error: redactor.text(err.message), ...err.extra });
    }
    if (err instanceof DomainError) {
      return reply.code(DOMAIN_STATUS[err.kind]).send({ error: redactor.text(err.message), ...err.extra });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ error: 'request body too large (limit 2 MB)' });
    }
    if (PARSER_CODES.has(err.code) || err instanceof SyntaxError) {
      return reply.code(400).send({ error: badJsonMessage(req) });
    }
    if (/prototype|constructor/i.test(err.message) && err.statusCode === 400) {
      return reply.code(400).send({ error: 'forbidden property in JSON body' });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ error: 'unsupported content type' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: redactor.text(err.message) });
    }
    logger.error({ err, method: req.method, url: stripAccessToken(req.url) }, 'unhandled error');
    const sqlite = (err as { code?: string }).code?.startsWith('SQLITE_') ? `database error (${err.code})` : null;
    return reply.code(500).send({ error: sqlite ?? redactor.text(err.message || 'internal error') });
  });
}
