// Which live streams are reconnecting right now: the shell shows a banner
// while any is. Each EventSource user registers under its own key.
import { createStore } from '../lib/store.ts';

export const streamHealth = createStore<ReadonlySet<string>>(new Set());

export function markReconnecting(key: string, reconnecting: boolean): void {
  streamHealth.set((prev) => {
    if (prev.has(key) === reconnecting) return prev;
    const next = new Set(prev);
    if (reconnecting) next.add(key);
    else next.delete(key);
    return next;
  });
}
