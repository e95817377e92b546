// Subscribers to gateway events by name ('*' for every event). Shared by a
// single session and by the reconnecting connection, whose subscribers
// outlive each session.
import type { EventFrame } from './protocol.ts';

export type EventHandler = (frame: EventFrame) => void;

export interface EventHandlers {
  /** Subscribes; returns the unsubscribe. */
  on(event: string, handler: EventHandler): () => void;
  emit(frame: EventFrame): void;
}

export function createEventHandlers(): EventHandlers {
  const handlers = new Map<string, Set<EventHandler>>();
  return {
    on(event, handler) {
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      set.add(handler);
      return () => void set.delete(handler);
    },
    emit(frame) {
      for (const key of [frame.event, '*']) for (const h of handlers.get(key) ?? []) h(frame);
    },
  };
}
