// A source read kept for a while: a good read for `okTtlMs`, a failed one
// for `failTtlMs` (shorter, so a remote that comes back is noticed soon).
// Concurrent callers share one read in flight, so a burst of page loads
// costs one fetch.
export interface TimedCache<T> {
  get(): Promise<T>;
}

export function timedCache<T>(
  load: () => Promise<T>,
  opts: { okTtlMs: number; failTtlMs: number; failed: (value: T) => boolean; now: () => number },
): TimedCache<T> {
  let value: T | undefined;
  let expires = 0;
  let inflight: Promise<T> | null = null;
  return {
    get() {
      if (value !== undefined && opts.now() < expires) return Promise.resolve(value);
      inflight ??= load()
        .then((v) => {
          value = v;
          expires = opts.now() + (opts.failed(v) ? opts.failTtlMs : opts.okTtlMs);
          return v;
        })
        .finally(() => {
          inflight = null;
        });
      return inflight;
    },
  };
}
