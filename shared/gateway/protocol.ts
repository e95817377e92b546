// The gateway's WebSocket frames (OpenClaw protocol 4): text JSON, three
// kinds. Every frame received from the gateway is parsed here before anything
// else looks at it.
//   req   { type: 'req', id, method, params }
//   res   { type: 'res', id, ok: true, payload } | { type: 'res', id, ok: false, error }
//   event { type: 'event', event, payload, seq?, stateVersion? }
import { z } from 'zod';

export const PROTOCOL_VERSION = 4;

export const GatewayErrorShape = z.object({
  code: z.string(),
  message: z.string().catch(''),
  details: z.unknown().optional(),
  retryable: z.boolean().optional(),
  retryAfterMs: z.number().optional(),
});
export type GatewayErrorShape = z.infer<typeof GatewayErrorShape>;

export const ResFrame = z.union([
  z.object({ type: z.literal('res'), id: z.string(), ok: z.literal(true), payload: z.unknown() }),
  z.object({ type: z.literal('res'), id: z.string(), ok: z.literal(false), error: GatewayErrorShape }),
]);
export type ResFrame = z.infer<typeof ResFrame>;

export const EventFrame = z.object({
  type: z.literal('event'),
  event: z.string(),
  payload: z.unknown(),
  seq: z.number().optional(),
  stateVersion: z.unknown().optional(),
});
export type EventFrame = z.infer<typeof EventFrame>;

export const ReqFrame = z.object({
  type: z.literal('req'),
  id: z.string(),
  method: z.string(),
  params: z.unknown().optional(),
});
export type ReqFrame = z.infer<typeof ReqFrame>;

export const InboundFrame = z.union([ResFrame, EventFrame]);
export type InboundFrame = z.infer<typeof InboundFrame>;

export const ChallengePayload = z.object({ nonce: z.string().min(1), ts: z.number() });

/** Parses one text frame from the gateway; null when it is not a frame we understand. */
export function parseInbound(text: string): InboundFrame | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A frame that is not JSON is dropped by the caller; its text may hold
    // anything, so it is not echoed into an error.
    return null;
  }
  const r = InboundFrame.safeParse(json);
  return r.success ? r.data : null;
}

/** An error the gateway answered with, or one svc's client raised (TIMEOUT, CLOSED, ...). */
export class GatewayError extends Error {
  readonly code: string;
  readonly details: unknown;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(shape: GatewayErrorShape) {
    super(shape.message || shape.code);
    this.name = 'GatewayError';
    this.code = shape.code;
    this.details = shape.details;
    this.retryable = shape.retryable === true;
    this.retryAfterMs = shape.retryAfterMs;
  }

  toShape(): GatewayErrorShape {
    return {
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
      ...(this.retryable ? { retryable: true } : {}),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
    };
  }
}
