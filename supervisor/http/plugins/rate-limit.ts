// The general router-wide rate limit (spec "Limits": the tier below the
// sensitive one's 60 per minute; issue 16 #6). Every request the front door
// takes counts against its client address, loopback clients included:
// `SVC_RATE_LIMIT` requests per minute (default 20,000; `off` = no limit).
// Past it, 429 with `Retry-After` until the window frees.
//
// A fixed window shared by all addresses: the first request after a window
// has ended opens the next one and empties the map, so the map holds only
// the addresses seen in the current minute and needs no sweeping. This runs
// on every request (app.ts's one onRequest hook): one clock read, one Map
// lookup, one store. A fixed window lets a client make up to twice the limit
// across a boundary; for a ceiling on runaway loops that is good enough, and
// the sensitive tier keeps its own exact limiter (@fastify/rate-limit).

export const RATE_LIMIT_WINDOW_MS = 60_000;
/**
 * Distinct addresses tracked in one window. Past it, addresses not yet seen
 * share one budget (OVERFLOW_KEY): memory stays bounded when many addresses
 * arrive, and the addresses already tracked keep their own budgets.
 */
export const RATE_LIMIT_MAX_TRACKED = 50_000;
const OVERFLOW_KEY = '\0overflow';

export interface RateLimiter {
  /** Counts one request from `address`; returns null when it may pass, else the whole seconds until the window frees (≥ 1). */
  hit(address: string): number | null;
  /** The 429 body (one string per limiter: built once). */
  readonly refusal: { readonly error: string };
}

export interface RateLimiterOptions {
  perMinute: number;
  /** The clock (ms); tests inject one. */
  now?: () => number;
  maxTracked?: number;
}

export function rateLimitMessage(perMinute: number): string {
  return `rate limit exceeded: ${perMinute} requests per minute`;
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const limit = opts.perMinute;
  const now = opts.now ?? Date.now;
  const maxTracked = opts.maxTracked ?? RATE_LIMIT_MAX_TRACKED;
  const counts = new Map<string, number>();
  let windowEnd = -Infinity;
  return {
    refusal: Object.freeze({ error: rateLimitMessage(limit) }),
    hit(address) {
      const t = now();
      // A clock set back by more than a window opens a new one too, so a window never outlasts a minute.
      if (t >= windowEnd || t < windowEnd - RATE_LIMIT_WINDOW_MS) {
        counts.clear();
        windowEnd = t + RATE_LIMIT_WINDOW_MS;
      }
      let key = address;
      let n = counts.get(key);
      if (n === undefined && counts.size >= maxTracked) {
        key = OVERFLOW_KEY;
        n = counts.get(key);
      }
      n = (n ?? 0) + 1;
      counts.set(key, n);
      if (n <= limit) return null;
      return Math.max(1, Math.ceil((windowEnd - t) / 1000));
    },
  };
}
