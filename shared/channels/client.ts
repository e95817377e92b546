// The requesting side of a channel (the supervisor talking to a worker).
import type { z } from 'zod';
import {
  CHANNEL_VERSION, Envelope,
  type ChannelError, type Contract, type EventOf, type PayloadOf, type PortLike, type Result, type ResultOf,
} from './contract.ts';

interface Pending {
  resolve: (r: Result<unknown>) => void;
  timer: NodeJS.Timeout;
  schema: z.ZodType;
}

export interface ChannelClient<C extends Contract> {
  request<M extends keyof C['requests'] & string>(
    method: M,
    payload: PayloadOf<C, M>,
    opts?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<Result<ResultOf<C, M>>>;
  on<E extends keyof C['events'] & string>(event: E, handler: (payload: EventOf<C, E>) => void): void;
  /** Fails every in-flight request (the worker died). */
  failAll(error: ChannelError): void;
  inFlight(): number;
  dispose(): void;
}

export function createChannelClient<C extends Contract>(
  contract: C,
  port: PortLike,
  opts: { defaultTimeoutMs?: number; onInvalid?: (detail: string) => void } = {},
): ChannelClient<C> {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const handlers = new Map<string, Array<(p: unknown) => void>>();
  const invalid = opts.onInvalid ?? (() => undefined);

  const settle = (id: number, r: Result<unknown>) => {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    clearTimeout(p.timer);
    p.resolve(r);
  };

  const listener = (raw: unknown) => {
    const env = Envelope.safeParse(raw);
    if (!env.success) return invalid(`${contract.name}: malformed message`);
    const msg = env.data;
    if (msg.type === 'res') {
      const p = pending.get(msg.id);
      if (!p) return;
      if (!msg.ok) return settle(msg.id, { ok: false, error: msg.error });
      const parsed = p.schema.safeParse(msg.result);
      settle(msg.id, parsed.success
        ? { ok: true, result: parsed.data }
        : { ok: false, error: { code: 'INVALID_RESULT', message: `${contract.name}: invalid result` } });
    } else if (msg.type === 'event') {
      const schema = contract.events[msg.event];
      if (!schema) return invalid(`${contract.name}: unknown event ${msg.event}`);
      const parsed = schema.safeParse(msg.payload);
      if (!parsed.success) return invalid(`${contract.name}: invalid ${msg.event} payload`);
      for (const h of handlers.get(msg.event) ?? []) h(parsed.data);
    }
  };
  port.on('message', listener);

  return {
    request(method, payload, ropts = {}) {
      const spec = contract.requests[method];
      if (!spec) return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_METHOD', message: method } });
      const checked = spec.payload.safeParse(payload);
      if (!checked.success) return Promise.resolve({ ok: false, error: { code: 'INVALID_PAYLOAD', message: `${contract.name}.${method}: invalid payload` } });
      if (ropts.signal?.aborted) return Promise.resolve({ ok: false, error: { code: 'ABORTED', message: `${contract.name}.${method} aborted` } });
      const id = nextId++;
      const timeoutMs = ropts.timeoutMs ?? opts.defaultTimeoutMs ?? 10_000;
      return new Promise((resolve) => {
        const timer = setTimeout(
          () => settle(id, { ok: false, error: { code: 'TIMEOUT', message: `${contract.name}.${method} timed out after ${timeoutMs} ms` } }),
          timeoutMs,
        );
        timer.unref();
        const signal = ropts.signal;
        const onAbort = () => settle(id, { ok: false, error: { code: 'ABORTED', message: `${contract.name}.${method} aborted` } });
        signal?.addEventListener('abort', onAbort, { once: true });
        const done: Pending['resolve'] = (r) => {
          signal?.removeEventListener('abort', onAbort);
          (resolve as Pending['resolve'])(r);
        };
        pending.set(id, { resolve: done, timer, schema: spec.result });
        const env: Envelope = { v: CHANNEL_VERSION, type: 'req', id, method, payload: checked.data };
        port.postMessage(env);
      });
    },
    on(event, handler) {
      const list = handlers.get(event) ?? [];
      list.push(handler as (p: unknown) => void);
      handlers.set(event, list);
    },
    failAll(error) {
      for (const id of [...pending.keys()]) settle(id, { ok: false, error });
    },
    inFlight: () => pending.size,
    dispose() {
      port.off('message', listener);
      this.failAll({ code: 'CLOSED', message: `${contract.name}: channel closed` });
    },
  };
}
