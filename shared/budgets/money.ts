// Money units of budgets, in one place. The database keeps micro-USD
// integers (a call of a cheap model costs a fraction of a cent); limits and
// grace are whole cents; the JSON shows cents plus the exact dollars.
// Converting a dollar amount rounds UP: a reservation or a spend is never
// smaller than what it stands for, so rounding never lets spend past a cap.

export const MICRO_PER_CENT = 10_000;
export const MICRO_PER_USD = 1_000_000;

/** Dollars → micro-USD, rounded up; a negative or non-finite amount is 0. */
export function usdToMicro(usd: number): number {
  if (!Number.isFinite(usd) || usd <= 0) return 0;
  // The small epsilon keeps a float like 0.000003 * 1e6 = 3.0000000000000004 at 3.
  return Math.ceil(usd * MICRO_PER_USD - 1e-6);
}

/** micro-USD → whole cents, rounded down (what has been spent in full cents). */
export const microToCentsFloor = (micro: number): number => Math.floor(micro / MICRO_PER_CENT);

/** micro-USD → whole cents, rounded up (what is held back, never understated). */
export const microToCentsCeil = (micro: number): number => Math.ceil(micro / MICRO_PER_CENT);

export const centsToMicro = (cents: number): number => cents * MICRO_PER_CENT;

export const microToUsd = (micro: number): number => micro / MICRO_PER_USD;

/** `$12.34` for an amount in cents. */
export function formatUsdCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  return `$${whole.toLocaleString('en-US')}.${rest}`;
}
