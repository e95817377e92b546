// Spec "Smaller resources" → "Chat history", POST /api/chat-history/reset-context
// against the REAL gateway. Not a test file on its own: the real-gateway test
// calls resetContextScenario() with a running svc (whose own gateway
// connection is up) and a connected gateway session. It chats in a fresh
// session, resets it through svc, and shows from the gateway that the
// conversation was reset (no user or assistant turn left in its history) and
// that the next turn starts without the old one, while svc's own transcript keeps every
// message plus exactly one divider.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { messageText, sendChat } from '../../shared/gateway/chat.ts';
import type { GatewaySession } from '../../shared/gateway/client.ts';
import { waitFor } from '../helpers/wait.ts';

export interface ResetContextScenarioContext {
  /** svc's base URL, e.g. http://127.0.0.1:18790 */
  svcBase: string;
  /** A connected operator session of the gateway svc talks to. */
  session: GatewaySession;
}

interface History {
  sessionId?: string;
  messages?: unknown[];
}
interface GatewayMessage {
  role?: string;
  __openclaw?: { kind?: string };
}

const CONNECTED_WITHIN_MS = 20_000;

async function json(svcBase: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${svcBase}${path}`, {
    method,
    signal: AbortSignal.timeout(30_000),
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The gateway link may still be coming up; a reset sent before it is would (rightly) say `unreachable`. */
async function untilSvcConnected(svcBase: string): Promise<void> {
  await waitFor(async () => {
    const r = await json(svcBase, 'POST', '/api/health/recheck');
    const checks = (r.body.checks ?? []) as Array<{ id: string; ok: boolean; message?: string }>;
    const reachable = checks.find((c) => c.id === 'gatewayReachable');
    if (reachable?.ok) return true;
    throw new Error(`gatewayReachable: ${JSON.stringify(reachable)}`);
  }, { what: 'the gateway link to come up', timeoutMs: CONNECTED_WITHIN_MS, intervalMs: 500 });
}

const historyTexts = (h: History) => (h.messages ?? []).map((m) => messageText(m) ?? '');
/** The user and assistant turns of a gateway history (its own system markers left out). */
const conversation = (h: History) =>
  (h.messages ?? []).filter((m) => ['user', 'assistant'].includes(String((m as GatewayMessage).role))).map((m) => messageText(m) ?? '');

export async function resetContextScenario(ctx: ResetContextScenarioContext): Promise<void> {
  const sessionKey = `agent:main:svc-reset-${randomBytes(4).toString('hex')}`;
  const history = async () => (await ctx.session.request('chat.history', { sessionKey, limit: 50 })) as History;

  // 1. A conversation at the gateway, and its transcript in svc.
  const first = await sendChat(ctx.session, { sessionKey, message: 'remember the apples', timeoutMs: 90_000 });
  assert.equal(first.state, 'final', first.errorMessage);
  const before = await history();
  assert.ok(historyTexts(before).some((t) => t.includes('remember the apples')), JSON.stringify(before).slice(0, 400));
  assert.equal(typeof before.sessionId, 'string');
  const posted = await json(ctx.svcBase, 'POST', '/api/chat-history', {
    sessionKey,
    entries: [{ entryId: `u-${sessionKey}`, role: 'user', kind: 'user', text: 'remember the apples', timestampMs: Date.now() }],
  });
  assert.equal(posted.status, 200, JSON.stringify(posted.body));

  // 2. The reset through svc.
  await untilSvcConnected(ctx.svcBase);
  const r = await json(ctx.svcBase, 'POST', '/api/chat-history/reset-context', { sessionKeys: [sessionKey], noticeSessionKey: sessionKey });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(r.body.sessions, [{ sessionKey, gateway: 'reset', resumePointerCleared: false }]);
  const divider = r.body.divider as { entryId: string; kind: string; sessionKey: string };
  assert.equal(divider.kind, 'meta');

  // 3. The gateway's side: the conversation is gone. OpenClaw 2026.9 keeps the
  // session id across a reset (it moves the session's lifecycle revision on)
  // and leaves only its own system "reset" marker in the history.
  const after = await history();
  assert.deepEqual(conversation(after), [], `no conversation left at the gateway: ${JSON.stringify(after.messages).slice(0, 400)}`);
  assert.ok((after.messages ?? []).some((m) => (m as GatewayMessage).__openclaw?.kind === 'reset'), 'the gateway marked the reset');

  // 4. The next turn carries nothing of the old conversation.
  const second = await sendChat(ctx.session, { sessionKey, message: 'what fruit?', timeoutMs: 90_000 });
  assert.equal(second.state, 'final', second.errorMessage);
  // The gateway builds the model's context from this transcript: the old turn is not in it.
  const texts = conversation(await history());
  assert.ok(texts.some((t) => t.includes('what fruit?')), texts.join(' | '));
  assert.ok(!texts.some((t) => t.includes('apples')), texts.join(' | '));

  // 5. svc's own transcript kept the message and has exactly one divider after it.
  const page = await json(ctx.svcBase, 'GET', `/api/chat-history?sessionKey=${encodeURIComponent(sessionKey)}`);
  assert.equal(page.status, 200);
  const entries = page.body.entries as Array<{ entryId: string; kind?: string }>;
  assert.deepEqual(entries.map((e) => e.entryId), [`u-${sessionKey}`, divider.entryId]);
}
