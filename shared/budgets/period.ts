// Budget periods: `none` never resets; `daily` resets at local midnight and
// `monthly` on the 1st of the month at local midnight, in the server's time
// zone (Node's local time). Resets are lazy: the first read or write of a row
// after a boundary zeroes its spend, grace and warnings (period.ts says when;
// the ledger and the store do it in their transactions).
export const BUDGET_PERIODS = ['none', 'daily', 'monthly'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

type Timed = Exclude<BudgetPeriod, 'none'>;

const bounds = (period: Timed, now: number): { start: number; end: number } => {
  const d = new Date(now);
  if (period === 'daily') {
    return { start: new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime(), end: new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() };
  }
  return { start: new Date(d.getFullYear(), d.getMonth(), 1).getTime(), end: new Date(d.getFullYear(), d.getMonth() + 1, 1).getTime() };
};

// The current period of each kind, kept while `now` stays inside it: every
// reserve and settle asks for it per budget, and local-time date math is the
// costly part of that question.
const last: Record<Timed, { start: number; end: number }> = { daily: { start: 0, end: 0 }, monthly: { start: 0, end: 0 } };

/** The start (ms) of the period holding `now`; null for `none`. */
export function periodStartOf(period: BudgetPeriod, now: number): number | null {
  if (period === 'none') return null;
  const held = last[period];
  if (now >= held.start && now < held.end) return held.start;
  const fresh = bounds(period, now);
  last[period] = fresh;
  return fresh.start;
}

/** True when a row whose current period began at `storedStart` is in an earlier period than `now`. */
export function periodRolledOver(period: BudgetPeriod, storedStart: number | null, now: number): boolean {
  const start = periodStartOf(period, now);
  return start !== null && (storedStart === null || storedStart < start);
}
