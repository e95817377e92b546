// Spec "Smaller resources" → "Chat history": page reads, idempotent appends,
// the context reset (divider + resume pointers + gateway sessions.reset) and
// the per-session delete. Field names the spec leaves open are in the README.
import type { FastifyInstance } from 'fastify';
import {
  CHAT_HISTORY_MESSAGES as M,
  createResumePointers,
  HistoryPostBody,
  HistoryQuery,
  readHistoryPage,
  resetContext,
  SessionKeyQuery,
  usableSessionKeys,
} from '../../../shared/chat-history/index.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest } from '../http-error.ts';
import { isObject, objectBody, parseOr400 } from '../validate.ts';

export function chatHistoryRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { chatMessages, logger } = deps;
  const resume = createResumePointers(deps.settingsTable, logger);

  app.get('/api/chat-history', async (req) => readHistoryPage(chatMessages, logger, parseOr400(HistoryQuery, req.query, M.sessionKeyRequired)));

  app.post('/api/chat-history', { config: { badJsonMessage: M.bodyRequired } }, async (req) => {
    const { sessionKey, entries } = parseOr400(HistoryPostBody, objectBody(req.body, M.bodyRequired), M.postFields);
    // Through chatMessages.insert: idempotent on entryId, and committed rows reach the team chat stream.
    const inserted = chatMessages.insert(sessionKey, entries.filter(isObject));
    // The spec: `saved` is the number of entries received, duplicates and id-less ones included.
    return { ok: true, saved: entries.length, inserted: inserted.length };
  });

  app.post('/api/chat-history/reset-context', { config: { badJsonMessage: M.bodyRequired } }, async (req) => {
    const body = objectBody(req.body, M.bodyRequired);
    const sessionKeys = usableSessionKeys(body.sessionKeys);
    if (sessionKeys.length === 0) throw badRequest(M.sessionKeysRequired);
    const notice = typeof body.noticeSessionKey === 'string' ? body.noticeSessionKey.trim() : '';
    if (!sessionKeys.includes(notice)) throw badRequest(M.noticeOutsideList);
    const result = await resetContext(
      {
        tx: deps.tx,
        chatMessages,
        resume,
        call: (method, params, opts) => deps.gatewayLink.call(method, params, opts),
        redact: (s) => deps.redactor.text(s),
        logger,
      },
      { sessionKeys, noticeSessionKey: notice },
    );
    return { ok: true, ...result };
  });

  app.delete('/api/chat-history', async (req) => {
    const { sessionKey } = parseOr400(SessionKeyQuery, req.query, M.sessionKeyRequired);
    return { ok: true, sessionKey, deleted: chatMessages.deleteSession(sessionKey) };
  });
}
