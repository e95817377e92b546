// Percentiles and formatting for benchmark figures.

/** Nearest-rank percentile (p in 0..100) of the values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

export const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : String(n);

export const pct = (ratio: number, digits = 1): string => `${fmt(ratio * 100, digits)} %`;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The largest value (no spread: arrays of samples can be long); NaN when empty. */
export function max(values: readonly number[]): number {
  let m = NaN;
  for (const v of values) if (!(v <= m)) m = v;
  return m;
}
