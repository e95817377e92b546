// Waiting in tests: for a condition or an event, never for a guessed time.
// A deadline here only stops a hung test with a message that says what never
// happened; it is generous (machines under load are slow) and never what a
// test asserts. Tests that need time itself to pass use an injected clock
// (a `now` parameter, or node:test's mock timers), not these.
//
// The real timers are captured when this module loads, so waits keep working
// while a test has node:test's mock timers enabled.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/**
 * Long enough for a loaded two-core machine running two real gateways at once (as Playwright's own
 * default for a locator); short enough that a hang fails in seconds, not at the runner's timeout.
 */
export const DEFAULT_WAIT_MS = 30_000;
const DEFAULT_INTERVAL_MS = 20;

export interface WaitOptions {
  /** What is awaited, for the timeout message: "the ingest worker to serve". */
  what: string;
  /** Stops a hung test (default DEFAULT_WAIT_MS). Not an assertion: pick it generously. */
  timeoutMs?: number;
  /** How often the probe runs (default 20 ms). */
  intervalMs?: number;
}

/**
 * Pauses for `ms`. For pacing only: a fixture's simulated work, a load's
 * rhythm, a kill at a random moment. Never to wait for something to happen:
 * use waitFor or deadline for that.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Runs `probe` until it returns something truthy, and returns that. A probe
 * that throws counts as "not yet" (a server still starting refuses
 * connections); the last error or value is in the timeout message.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, opts: WaitOptions): Promise<Truthy<T>> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_MS;
  const deadlineAt = Date.now() + timeoutMs;
  let last: string | null = null;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as Truthy<T>;
      last = `last value: ${describe(value)}`;
    } catch (err) {
      last = `last error: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (Date.now() >= deadlineAt) throw new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what} (${last})`);
    await sleep(opts.intervalMs ?? DEFAULT_INTERVAL_MS);
  }
}

/** Settles like `promise`, or rejects with a message naming `what` if it has not settled in time (a hang, not a slow run). */
export function deadline<T>(promise: Promise<T>, opts: Omit<WaitOptions, 'intervalMs'>): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_MS;
  return new Promise<T>((resolve, reject) => {
    const timer = realSetTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what}`)), timeoutMs);
    promise.then(
      (v) => {
        realClearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        realClearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * Resolves once the wall clock reads later than `stamp` (default: now), so a
 * write made after it gets a strictly later epoch-ms timestamp than one made
 * before. Waits for the clock to move, not for a guessed number of ms.
 */
export function untilClockPasses(stamp: number = Date.now()): Promise<number> {
  return waitFor(() => (Date.now() > stamp ? Date.now() : 0), { what: `the clock to pass ${stamp}`, intervalMs: 1 });
}

function describe(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 500);
  } catch {
    // A value JSON cannot show (a cycle, a BigInt): its string form is enough for a message.
    return String(value);
  }
}
