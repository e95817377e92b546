// POST /api/obs/ingest: client-side tool_call / tool_result / error events.
// A JSON body reaches the handler as its bytes (this route's own content-type
// parser): the ingest worker parses it, off the front door's thread
// (supervisor/services/ingest-service.ts). Any other body (none, or
// text/plain, which fastify reads as a string) is not an object with
// `events`: nothing to write.
// An `Idempotency-Key` header makes a retried batch answer its first answer
// instead of being stored twice (shared/events/ingest-keys.ts). An unexpected
// throw is the spec's 400 `{ error }`, redacted, from the one error handler.
import type { FastifyInstance } from 'fastify';
import { INGEST_MESSAGES } from '../../../shared/events/ingest.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, idempotencyKeyOf } from '../../../shared/events/ingest-keys.ts';
import type { AppDeps } from '../../deps.ts';
import { HttpError, badRequest } from '../http-error.ts';
import { DEFAULT_BAD_JSON_MESSAGE, type ErrorReply } from '../plugins/errors.ts';

const INGEST_ERRORS: ErrorReply = { unexpected: { status: 400 } };

export function obsIngestRoutes(app: FastifyInstance, { ingest }: AppDeps): void {
  // A scope of its own, so that the bytes parser applies to this route only.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    scope.post('/api/obs/ingest', { config: { errorReply: INGEST_ERRORS } }, async (req) => {
      const key = idempotencyKeyOf(req.headers[IDEMPOTENCY_KEY_HEADER]);
      if (key === null) throw badRequest(IDEMPOTENCY_MESSAGES.badKey);
      if (!Buffer.isBuffer(req.body)) return { ok: true, count: 0 };
      const r = await ingest.appendBody(req.body, Date.now(), key);
      // Not JSON: the answer every JSON route gives (plugins/errors.ts).
      if ('badJson' in r) throw badRequest(DEFAULT_BAD_JSON_MESSAGE);
      if ('tooLarge' in r) throw new HttpError(413, INGEST_MESSAGES.tooLarge);
      if ('keyReused' in r) throw new HttpError(422, IDEMPOTENCY_MESSAGES.reused);
      return { ok: true, count: 'replayed' in r ? r.replayed.count : r.rows.length };
    });
  });
}
