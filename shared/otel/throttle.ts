// At most one log line per interval for a recurring failure (a collector that
// is down fails every batch): the first occurrence is logged at once, later
// ones are counted and the count rides on the next line logged.

export interface Throttled {
  (fields: Record<string, unknown>, message: string): void;
}

export function throttled(log: (fields: Record<string, unknown>, message: string) => void, intervalMs: number, now: () => number = Date.now): Throttled {
  let last = -Infinity;
  let suppressed = 0;
  return (fields, message) => {
    const t = now();
    if (t - last < intervalMs) {
      suppressed++;
      return;
    }
    last = t;
    log(suppressed > 0 ? { ...fields, suppressed } : fields, message);
    suppressed = 0;
  };
}
