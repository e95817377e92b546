// Waiting for an approval to be resolved, without polling the row.
//  - A resolve made through this database connection wakes its waiters at
//    once (notify(), called by the resolve itself).
//  - A resolve made by another connection (an MCP stdio binary runs its own
//    broker on the same file) is noticed through `PRAGMA data_version`, which
//    changes only when another connection commits: it is read on a modest
//    interval, and waiting rows are re-read only when it moved.
//  - A timer per waiter ends the wait at expiresAt (expired = denied).
//  - An AbortSignal (a closed MCP session) or an optional deadline ends it early.
// Everything keyed by connection lives in one hub per Db, so two brokers on
// one connection still wake each other.
import type { Db } from '../db/open.ts';
import type { ApprovalDecision, ToolApproval } from './types.ts';

export type WaitStatus = ApprovalDecision | 'expired' | 'cancelled' | 'timeout';
export interface WaitOutcome {
  status: WaitStatus;
  /** The row as last read (null only when it vanished). */
  approval: ToolApproval | null;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up after this many ms (status `timeout`), even if the row is still live. */
  deadlineMs?: number;
}

export const DEFAULT_CROSS_PROCESS_CHECK_MS = 500;
// setTimeout's largest delay; longer waits re-arm.
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Waiter {
  id: string;
  check(): void;
}

interface Hub {
  waiters: Set<Waiter>;
  version: number;
  interval: NodeJS.Timeout | null;
}

const hubs = new WeakMap<Db, Hub>();

export interface ApprovalWaiter {
  /** A row changed through this connection: wake whoever waits on it. */
  notify(id: string): void;
  wait(id: string, opts?: WaitOptions): Promise<WaitOutcome>;
  /** Waiters currently blocked on this connection (for tests and health). */
  size(): number;
}

export function createApprovalWaiter(opts: {
  db: Db;
  get: (id: string) => ToolApproval | null;
  now: () => number;
  crossProcessCheckMs?: number;
  onError: (err: unknown) => void;
}): ApprovalWaiter {
  const { db, get, now, onError } = opts;
  const checkMs = opts.crossProcessCheckMs ?? DEFAULT_CROSS_PROCESS_CHECK_MS;
  const dataVersion = () => db.pragma('data_version', { simple: true }) as number;

  let hub = hubs.get(db);
  if (!hub) {
    hub = { waiters: new Set(), version: 0, interval: null };
    hubs.set(db, hub);
  }
  const h = hub;

  const tick = () => {
    try {
      if (!db.open) return;
      const v = dataVersion();
      if (v === h.version) return;
      h.version = v;
      for (const w of [...h.waiters]) w.check();
    } catch (err) {
      // A failed cross-process check only delays a wake-up to the next tick or the expiry timer.
      onError(err);
    }
  };

  const register = (w: Waiter) => {
    if (h.waiters.size === 0 || !h.interval) {
      // The baseline is read before the waiter's first look at its row (same
      // synchronous turn), so a commit in between cannot be missed.
      h.version = dataVersion();
      h.interval = setInterval(tick, checkMs);
      // The expiry timer keeps the process alive while a wait is live; this one need not.
      h.interval.unref();
    }
    h.waiters.add(w);
  };
  const unregister = (w: Waiter) => {
    h.waiters.delete(w);
    if (h.waiters.size === 0 && h.interval) {
      clearInterval(h.interval);
      h.interval = null;
    }
  };

  return {
    notify(id) {
      for (const w of [...h.waiters]) if (w.id === id) w.check();
    },
    size: () => h.waiters.size,
    wait(id, { signal, deadlineMs } = {}) {
      return new Promise<WaitOutcome>((resolve) => {
        let done = false;
        let expiryTimer: NodeJS.Timeout | null = null;
        let deadlineTimer: NodeJS.Timeout | null = null;
        let last: ToolApproval | null = null;
        const finish = (status: WaitStatus) => {
          if (done) return;
          done = true;
          unregister(waiter);
          if (expiryTimer) clearTimeout(expiryTimer);
          if (deadlineTimer) clearTimeout(deadlineTimer);
          signal?.removeEventListener('abort', onAbort);
          resolve({ status, approval: last });
        };
        /** Reads the row; finishes when it is resolved, gone or expired. */
        const check = () => {
          if (done) return;
          try {
            last = get(id);
          } catch (err) {
            onError(err);
            return; // the expiry timer still bounds the wait
          }
          if (!last) return finish('expired');
          if (last.status !== 'pending') return finish(last.status);
          if (last.expiresAt <= now()) return finish('expired');
          armExpiry(last.expiresAt);
        };
        const armExpiry = (expiresAt: number) => {
          if (expiryTimer) clearTimeout(expiryTimer);
          expiryTimer = setTimeout(check, Math.min(MAX_TIMER_MS, Math.max(0, expiresAt - now()) + 1));
        };
        const onAbort = () => finish('cancelled');
        const waiter: Waiter = { id, check };

        if (signal?.aborted) return resolve({ status: 'cancelled', approval: get(id) });
        register(waiter);
        check();
        if (done) return;
        signal?.addEventListener('abort', onAbort, { once: true });
        if (deadlineMs !== undefined) deadlineTimer = setTimeout(() => finish('timeout'), Math.min(MAX_TIMER_MS, Math.max(0, deadlineMs)));
      });
    },
  };
}
