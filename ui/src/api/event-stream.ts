// A GET SSE stream through the browser's EventSource: it reconnects by itself
// and resends the last id as Last-Event-ID, so the server resumes where the
// page left off. While it is down the shell shows the reconnect banner;
// `onReopen` runs after a reconnect (to reload what frames may have missed).
// A stream the server refuses (an error status, e.g. 503 at the stream cap)
// is closed by the browser for good: the hook then reports `failed`, and
// `retry()` opens it again.
import { useCallback, useEffect, useRef, useState } from 'react';
import { markReconnecting } from './stream-health.ts';

export interface StreamHandlers {
  /** Unnamed frames (`message`). */
  message?: (data: string, id: string) => void;
  /** Named frames: event name to handler. */
  events?: Record<string, (data: string, id: string) => void>;
  onReopen?: () => void;
}

let streamCount = 0;

export interface StreamState {
  /** The browser gave up on the stream (the server answered with an error). */
  failed: boolean;
  retry(): void;
}

export function useEventStream(url: string | null, handlers: StreamHandlers): StreamState {
  const ref = useRef(handlers);
  ref.current = handlers;
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  const retry = useCallback(() => {
    setFailed(false);
    setAttempt((n) => n + 1);
  }, []);
  useEffect(() => {
    if (url === null) return undefined;
    const key = `${url}#${++streamCount}`;
    const es = new EventSource(url, { withCredentials: true });
    let opened = false;
    let down = false;
    es.onopen = () => {
      if (down) ref.current.onReopen?.();
      opened = true;
      down = false;
      markReconnecting(key, false);
    };
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) {
        markReconnecting(key, false);
        setFailed(true);
        return;
      }
      // EventSource retries on its own while readyState is CONNECTING.
      if (opened) {
        down = true;
        markReconnecting(key, true);
      }
    };
    es.onmessage = (e: MessageEvent<string>) => ref.current.message?.(e.data, e.lastEventId);
    const names = Object.keys(handlers.events ?? {});
    const listeners = names.map((name) => {
      const fn = (e: Event) => {
        const m = e as MessageEvent<string>;
        ref.current.events?.[name]?.(m.data, m.lastEventId);
      };
      es.addEventListener(name, fn);
      return [name, fn] as const;
    });
    return () => {
      for (const [name, fn] of listeners) es.removeEventListener(name, fn);
      es.close();
      markReconnecting(key, false);
    };
    // The set of event names is fixed per URL; handlers are read through the ref.
  }, [url, attempt]);
  return { failed, retry };
}
