// Spec "Chat history" → POST /api/chat-history/reset-context. Ends the
// model's conversation for every listed session without touching a message:
//  1. locally, in one transaction: clear each session's native resume pointer
//     and write exactly one divider entry under the notice key;
//  2. then, for each gateway session (`agent:<agentId>:...`), ask the gateway
//     to reset it (`sessions.reset`), so its next turn gets a new session id.
// The local part always happens (it commits before any gateway call); the
// gateway part is reported per session, because a gateway that is down
// cannot be made to forget, and the caller has to be able to tell.
import type { ChatMessages } from '../db/chat-messages.ts';
import type { Tx } from '../db/tx.ts';
// The gateway-call type and error classification are the exec policy's, shared rather than copied.
import { gatewayErrorCode, isUnreachable, type GatewayCall } from '../exec/gateway-policy.ts';
import { uuidv7 } from '../ids.ts';
import type { Logger } from '../log.ts';
import type { ResumePointers } from './resume-pointers.ts';
import type { HistoryEntry } from './schemas.ts';
import { messageOf } from '../errors.ts';

export const DIVIDER_TEXT =
  'Context reset: the conversation starts fresh from here. Earlier messages stay visible but are no longer part of the agents\' context.';
export const DIVIDER_SOURCE = 'context-reset';

/** What happened at the gateway for one session. */
export type GatewayResetOutcome = 'reset' | 'unreachable' | 'failed' | 'not-applicable';

export interface SessionResetReport {
  sessionKey: string;
  gateway: GatewayResetOutcome;
  /** True when a native resume pointer was stored and is now cleared. */
  resumePointerCleared: boolean;
  /** Gateway error code (`failed` / `unreachable` only). */
  code?: string;
  /** Redacted gateway error message (`failed` only). */
  error?: string;
}

type GatewayPart = Pick<SessionResetReport, 'gateway' | 'code' | 'error'>;

export interface ResetContextResult {
  divider: HistoryEntry;
  sessions: SessionResetReport[];
}

export interface ResetContextDeps {
  tx: Tx;
  chatMessages: ChatMessages;
  resume: ResumePointers;
  call: GatewayCall;
  /** Display redactor for gateway error text. */
  redact: (s: string) => string;
  logger: Logger;
  now?: () => number;
}

/** Short: the reset is interactive, and a gateway that does not answer is reported, not waited for. */
export const RESET_TIMEOUTS = { timeoutMs: 5_000, waitMs: 1_500 } as const;
const GATEWAY_CONCURRENCY = 4;

/** A session key the gateway owns: `agent:<agentId>:<rest>`. */
export const isGatewaySessionKey = (key: string) => /^agent:[^:]+:.+/.test(key);

export function dividerEntry(noticeSessionKey: string, sessionKeys: readonly string[], now: number): HistoryEntry {
  const entryId = uuidv7(now);
  return {
    entryId,
    role: 'system',
    kind: 'meta',
    text: DIVIDER_TEXT,
    sessionKey: noticeSessionKey,
    runId: null,
    source: DIVIDER_SOURCE,
    timestampMs: now,
    sequenceKey: now,
    confirmed: true,
    fingerprint: `${DIVIDER_SOURCE}:${entryId}`,
    // Which sessions this one divider stands for (it is written once, under the notice key).
    resetSessionKeys: [...sessionKeys],
  };
}

async function resetAtGateway(deps: ResetContextDeps, sessionKey: string): Promise<GatewayPart> {
  if (!isGatewaySessionKey(sessionKey)) return { gateway: 'not-applicable' };
  try {
    const reply = (await deps.call('sessions.reset', { key: sessionKey }, RESET_TIMEOUTS)) as { ok?: unknown } | null;
    if (reply?.ok === true) return { gateway: 'reset' };
    return { gateway: 'failed', code: 'UNEXPECTED_REPLY', error: 'sessions.reset returned an unexpected reply' };
  } catch (err) {
    const code = gatewayErrorCode(err);
    const error = deps.redact(messageOf(err));
    deps.logger.warn({ sessionKey, code, error }, 'reset-context: the gateway did not reset the session; the local reset stands');
    return isUnreachable(err) ? { gateway: 'unreachable', code } : { gateway: 'failed', code, error };
  }
}

/** Runs fn over items, at most `limit` at a time, keeping the order of the results. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function resetContext(
  deps: ResetContextDeps,
  input: { sessionKeys: readonly string[]; noticeSessionKey: string },
): Promise<ResetContextResult> {
  const now = (deps.now ?? Date.now)();
  const divider = dividerEntry(input.noticeSessionKey, input.sessionKeys, now);
  const cleared = deps.tx.run(() => {
    const c = input.sessionKeys.map((k) => deps.resume.clear(k));
    deps.chatMessages.insert(input.noticeSessionKey, [divider]);
    return c;
  });
  const gateway = await mapLimited(input.sessionKeys, GATEWAY_CONCURRENCY, (k) => resetAtGateway(deps, k));
  return {
    divider,
    sessions: input.sessionKeys.map((sessionKey, i) => ({ sessionKey, resumePointerCleared: cleared[i] === true, ...(gateway[i] as GatewayPart) })),
  };
}
