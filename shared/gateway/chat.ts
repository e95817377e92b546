// One chat turn through the gateway: subscribe to `chat` events first, then
// `chat.send`, then follow the run until its final (or error, or abort). The
// subscription comes first because a fast run can emit its first delta before
// the `chat.send` response arrives; events are buffered until the run id is
// known and then filtered by it.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { GatewaySession } from './client.ts';
import { GatewayError, type EventFrame } from './protocol.ts';

export const ChatEventPayload = z.object({
  runId: z.string(),
  sessionKey: z.string().optional(),
  state: z.string(),
  deltaText: z.string().optional(),
  replace: z.boolean().optional(),
  message: z.unknown().optional(),
  errorMessage: z.string().optional(),
  stopReason: z.string().optional(),
});
export type ChatEventPayload = z.infer<typeof ChatEventPayload>;

export interface ChatTurn {
  runId: string;
  /** The assistant's full text (the final message's text, else the accumulated deltas). */
  text: string;
  state: 'final' | 'error' | 'aborted';
  errorMessage?: string;
}

export interface ChatSendOptions {
  sessionKey: string;
  message: string;
  /** Bound on the whole turn (default 120 s). */
  timeoutMs?: number;
  /** Sees the running text after each delta (replace semantics: always the full text so far). */
  onText?: (text: string) => void;
  idempotencyKey?: string;
}

/** Text of a chat `message` ({ content: [{ type: 'text', text }] } or a string). */
export function messageText(message: unknown): string | null {
  if (typeof message === 'string') return message;
  const content = (message as { content?: unknown } | null | undefined)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  return content
    .map((c: unknown) => (c && typeof c === 'object' && (c as { type?: unknown }).type === 'text' ? String((c as { text?: unknown }).text ?? '') : ''))
    .join('');
}

/**
 * The running text after one `delta` event (replace semantics: the message's
 * full text when the event carries it, else `deltaText` replacing or
 * appending). sendChat and the native-delegation tracker share the rule.
 */
export function textAfterDelta(prev: string, p: Pick<ChatEventPayload, 'message' | 'replace' | 'deltaText'>): string {
  return messageText(p.message) ?? (p.replace ? (p.deltaText ?? '') : prev + (p.deltaText ?? ''));
}

export function sendChat(session: GatewaySession, opts: ChatSendOptions): Promise<ChatTurn> {
  const buffered: ChatEventPayload[] = [];
  let runId: string | null = null;
  let text = '';
  let finish: ((t: ChatTurn) => void) | null = null;

  const consume = (p: ChatEventPayload) => {
    if (p.state === 'delta') {
      text = textAfterDelta(text, p);
      opts.onText?.(text);
    } else if (p.state === 'final') {
      text = messageText(p.message) ?? text;
      finish?.({ runId: p.runId, text, state: 'final' });
    } else if (p.state === 'error') {
      finish?.({ runId: p.runId, text, state: 'error', errorMessage: p.errorMessage ?? 'run failed' });
    } else if (p.state === 'aborted') {
      finish?.({ runId: p.runId, text, state: 'aborted' });
    }
  };
  const off = session.on('chat', (frame: EventFrame) => {
    const p = ChatEventPayload.safeParse(frame.payload);
    if (!p.success) return;
    if (runId === null) buffered.push(p.data);
    else if (p.data.runId === runId) consume(p.data);
  });

  return new Promise<ChatTurn>((resolve, reject) => {
    const timeoutMs = opts.timeoutMs ?? 120_000;
    const timer = setTimeout(() => {
      done();
      reject(new GatewayError({ code: 'TIMEOUT', message: `chat turn timed out after ${timeoutMs} ms` }));
    }, timeoutMs);
    let ended = false;
    const done = () => {
      ended = true;
      off();
      clearTimeout(timer);
    };
    // A delivery copy of `final` can follow the first: only the first counts.
    finish = (t) => {
      if (ended) return;
      done();
      resolve(t);
    };
    session.onClose(() => {
      if (ended) return;
      done();
      reject(new GatewayError({ code: 'CLOSED', message: 'gateway connection closed during the chat turn' }));
    });
    session
      .request('chat.send', { sessionKey: opts.sessionKey, message: opts.message, idempotencyKey: opts.idempotencyKey ?? randomUUID() })
      .then((res) => {
        const id = (res as { runId?: unknown } | null)?.runId;
        if (typeof id !== 'string') throw new GatewayError({ code: 'PROTOCOL', message: 'chat.send answered without a runId' });
        runId = id;
        for (const p of buffered.splice(0)) if (p.runId === id) consume(p);
      })
      .catch((err: unknown) => {
        if (ended) return;
        done();
        reject(err);
      });
  });
}
