// The serving side of a channel (inside a worker thread).
import {
  CHANNEL_VERSION, Envelope,
  type Contract, type EventOf, type PayloadOf, type PortLike, type ResultOf,
} from './contract.ts';
import { messageOf, publicMessageOf } from '../errors.ts';

export type Handlers<C extends Contract> = {
  [M in keyof C['requests'] & string]: (payload: PayloadOf<C, M>) => ResultOf<C, M> | Promise<ResultOf<C, M>>;
};

export interface ChannelServer<C extends Contract> {
  emit<E extends keyof C['events'] & string>(event: E, payload: EventOf<C, E>): void;
  dispose(): void;
}

export function serveChannel<C extends Contract>(contract: C, port: PortLike, handlers: Handlers<C>): ChannelServer<C> {
  const reply = (env: Envelope) => port.postMessage(env);
  const fail = (id: number, code: string, message: string) =>
    reply({ v: CHANNEL_VERSION, type: 'res', id, ok: false, error: { code, message } });

  const listener = (raw: unknown) => {
    const env = Envelope.safeParse(raw);
    if (!env.success || env.data.type !== 'req') return;
    const { id, method, payload } = env.data;
    const spec = contract.requests[method];
    const handler = (handlers as Record<string, ((p: unknown) => unknown) | undefined>)[method];
    if (!spec || !handler) return fail(id, 'UNKNOWN_METHOD', `${contract.name}: unknown method ${method}`);
    const parsed = spec.payload.safeParse(payload);
    if (!parsed.success) return fail(id, 'INVALID_PAYLOAD', `${contract.name}.${method}: invalid payload`);
    Promise.resolve()
      .then(() => handler(parsed.data))
      .then(
        (result) => {
          try {
            reply({ v: CHANNEL_VERSION, type: 'res', id, ok: true, result });
          } catch (err) {
            // The result could not be cloned across threads: answer with the failure.
            fail(id, 'HANDLER_ERROR', `${contract.name}.${method}: ${messageOf(err)}`);
          }
        },
        // The message may reach an HTTP body on the other side: a SQLite error crosses by its code only.
        (err: unknown) => fail(id, 'HANDLER_ERROR', publicMessageOf(err)),
      );
  };
  port.on('message', listener);
  return {
    emit(event, payload) {
      reply({ v: CHANNEL_VERSION, type: 'event', event, payload });
    },
    dispose: () => void port.off('message', listener),
  };
}
