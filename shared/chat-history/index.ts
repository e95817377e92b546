// Chat history (spec "Smaller resources" → "Chat history").
export { CHAT_HISTORY_MESSAGES, HistoryEntry, HistoryPostBody, HistoryQuery, PAGE_LIMIT, SessionKeyQuery, usableSessionKeys } from './schemas.ts';
export { readHistoryPage, type HistoryPage } from './history.ts';
export { createResumePointers, resumeKey, RESUME_KEY_PREFIX, ResumePointerSchema, type ResumePointer, type ResumePointers } from './resume-pointers.ts';
export {
  DIVIDER_SOURCE,
  DIVIDER_TEXT,
  dividerEntry,
  isGatewaySessionKey,
  RESET_TIMEOUTS,
  resetContext,
  type GatewayResetOutcome,
  type ResetContextResult,
  type SessionResetReport,
} from './reset-context.ts';
