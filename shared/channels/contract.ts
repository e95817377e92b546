// Typed message channels between threads. A contract names a worker's
// requests (payload and result schemas) and the events it emits. Every
// message is validated on receipt; every request carries a correlation id
// and a timeout; failures cross as values ({ ok: false, error }), never as
// thrown class instances.
import { z } from 'zod';

export const CHANNEL_VERSION = 1;

export interface RequestSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  payload: P;
  result: R;
}

export interface Contract<
  Req extends Record<string, RequestSpec> = Record<string, RequestSpec>,
  Ev extends Record<string, z.ZodType> = Record<string, z.ZodType>,
> {
  name: string;
  requests: Req;
  events: Ev;
}

export function defineContract<Req extends Record<string, RequestSpec>, Ev extends Record<string, z.ZodType>>(
  c: Contract<Req, Ev>,
): Contract<Req, Ev> {
  return c;
}

export const ChannelError = z.object({ code: z.string(), message: z.string() });
export type ChannelError = z.infer<typeof ChannelError>;

export type Result<T> = { ok: true; result: T } | { ok: false; error: ChannelError };

/** The envelope of every message on a channel (a plain union: two reply shapes share type 'res'). */
export const Envelope = z.union([
  z.object({ v: z.literal(CHANNEL_VERSION), type: z.literal('req'), id: z.number().int(), method: z.string(), payload: z.unknown() }),
  z.object({ v: z.literal(CHANNEL_VERSION), type: z.literal('res'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ v: z.literal(CHANNEL_VERSION), type: z.literal('res'), id: z.number().int(), ok: z.literal(false), error: ChannelError }),
  z.object({ v: z.literal(CHANNEL_VERSION), type: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);
export type Envelope = z.infer<typeof Envelope>;

export type PayloadOf<C extends Contract, M extends keyof C['requests']> = z.infer<C['requests'][M]['payload']>;
export type ResultOf<C extends Contract, M extends keyof C['requests']> = z.infer<C['requests'][M]['result']>;
export type EventOf<C extends Contract, E extends keyof C['events']> = z.infer<C['events'][E]>;

/** The minimal port surface both MessagePort and Worker share. */
export interface PortLike {
  postMessage(msg: unknown): void;
  on(event: 'message', listener: (msg: unknown) => void): unknown;
  off(event: 'message', listener: (msg: unknown) => void): unknown;
}
