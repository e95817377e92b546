// Everything svc's endpoint needs from a request body, read in one pass: the
// request rules' verdict, the model, stream mode, what the estimate prices,
// the session key the body claims (display only), the turn's counts for the
// runaway limits, and the body to send when it must change (a stream that
// did not ask for its usage). A body is parsed once, here; the endpoint
// reads a small body on its own thread and a large one in the job pool
// (`modelRequest`), so a 16 MiB body never stalls every other request
// while it parses.
import { z } from 'zod';
import type { RoutedApi } from '../model-routing/registry.ts';
import { withUsageRequested } from './api.ts';
import { sessionKeyOf, storableSessionKey } from './call-context.ts';
import { maxOutputTokensOf } from './estimate.ts';
import { choicesOf, refusedRequest } from './request-rules.ts';
import { turnCounts } from './runaway.ts';

/** Bodies up to this size are read on the endpoint's thread; larger ones in a pool thread. */
export const INLINE_BODY_BYTES = 256 * 1024;

const bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'bytes');

export const RequestFactsSchema = z.object({
  /** Why svc refuses to forward it (a 400), else null. */
  refused: z.string().nullable(),
  model: z.string(),
  stream: z.boolean(),
  /** The session key of the body's Runtime line, when it has a session key's shape and length. */
  claimedSessionKey: z.string().nullable(),
  maxOutputTokens: z.number().int().positive().nullable(),
  choices: z.number().int().positive(),
  turn: z.object({ calls: z.number().int().positive(), repeats: z.number().int().nonnegative(), tool: z.string() }),
  /** The body to send upstream when it is not the one received. */
  rewritten: bytes.nullable(),
});
export type RequestFacts = z.infer<typeof RequestFactsSchema>;

export const ModelRequestJobArg = z.object({
  api: z.enum(['openai-completions', 'anthropic-messages', 'openai-responses']),
  agentId: z.string(),
  models: z.array(z.string()),
  raw: bytes,
});
/** The job's result: the facts, or null for a body that is not a JSON object (a 400). */
export const ModelRequestJobResult = RequestFactsSchema.nullable();

function parseObject(raw: Uint8Array): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    // Not JSON: the endpoint answers 400 (its caller sees null).
    return null;
  }
}

/** The facts of one body, or null when it is not a JSON object. */
export function readRequest(api: RoutedApi, agentId: string, models: readonly string[], raw: Uint8Array): RequestFacts | null {
  const body = parseObject(raw);
  if (body === null) return null;
  const refused = refusedRequest(api, agentId, body, models);
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const send = refused === null ? withUsageRequested(api, buf, body) : buf;
  return {
    refused,
    model: typeof body.model === 'string' ? body.model : '',
    stream: body.stream === true,
    claimedSessionKey: storableSessionKey(sessionKeyOf(body)),
    maxOutputTokens: maxOutputTokensOf(body),
    choices: choicesOf(api, body),
    turn: turnCounts(api, body),
    rewritten: send === buf ? null : send,
  };
}
