// The budget status machine (spec "Budget status"), pure: no SQL, no clock.
// The ledger and the store feed it a row's numbers and write back what it
// returns; the property test checks it against a plain reference model.
//
// - cap: `paused` once spend reaches 100 % of (limit + grace), or when a call
//   is refused; paused is sticky under spend (only a resume, a new limit or a
//   period reset leaves it).
// - warn: a warning at `warnPct` and at 100 %, each once per period
//   (warnedPct remembers the highest crossed); `soft_capped` from 100 %;
//   never paused, never refuses.
import { centsToMicro } from './money.ts';
import type { BudgetMode, BudgetStatus } from './schemas.ts';

export interface BudgetNumbers {
  mode: BudgetMode;
  /** The limit in force: the row's, or the hard cap when that is lower (global row). */
  limitUsdCents: number;
  graceUsdCents: number;
  spentMicro: number;
  reservedMicro: number;
  status: BudgetStatus;
  warnedPct: number;
}

export interface StatusChange {
  status: BudgetStatus;
  warnedPct: number;
  /** The warning threshold this change crossed (the highest, when it crossed two), else null. */
  crossedPct: number | null;
}

/** The cap in force, micro-USD: limit plus grace. */
export const capMicro = (b: Pick<BudgetNumbers, 'limitUsdCents' | 'graceUsdCents'>): number => centsToMicro(b.limitUsdCents + b.graceUsdCents);

/** The highest warning threshold spend is at or above: 100, warnPct or 0. */
export function reachedPct(spentMicro: number, cap: number, warnPct: number): number {
  if (cap <= 0 || spentMicro >= cap) return 100;
  return spentMicro * 100 >= cap * warnPct ? warnPct : 0;
}

/** After spend was added (a settle, a fallback meter, a recovered reservation). */
export function afterSpend(b: BudgetNumbers, warnPct: number): StatusChange {
  const cap = capMicro(b);
  if (b.mode === 'cap') {
    const status: BudgetStatus = b.status === 'paused' || b.spentMicro >= cap ? 'paused' : 'active';
    return { status, warnedPct: b.warnedPct, crossedPct: null };
  }
  const reached = reachedPct(b.spentMicro, cap, warnPct);
  const crossedPct = reached > b.warnedPct ? reached : null;
  const warnedPct = Math.max(b.warnedPct, reached);
  return { status: reached >= 100 ? 'soft_capped' : 'active', warnedPct, crossedPct };
}

/** Status recomputed from spend alone: a new limit, a resume, a period reset. Warnings already given are kept only while still reached. */
export function fromSpend(b: BudgetNumbers, warnPct: number): Omit<StatusChange, 'crossedPct'> {
  const cap = capMicro(b);
  if (b.mode === 'cap') return { status: b.spentMicro >= cap ? 'paused' : 'active', warnedPct: 0 };
  const reached = reachedPct(b.spentMicro, cap, warnPct);
  return { status: reached >= 100 ? 'soft_capped' : 'active', warnedPct: reached };
}

/** A resume: cap rows become active whatever the spend (the next call decides); warn rows follow spend. */
export function afterResume(b: BudgetNumbers, warnPct: number): Omit<StatusChange, 'crossedPct'> {
  if (b.mode === 'cap') return { status: 'active', warnedPct: 0 };
  return fromSpend(b, warnPct);
}

/**
 * Whether a call reserving `estimateMicro` is refused by this row: only cap
 * rows refuse, when paused, already at the cap, or when spend plus what is
 * already reserved plus this estimate would exceed it.
 */
export function refuses(b: BudgetNumbers, estimateMicro: number): boolean {
  if (b.mode !== 'cap') return false;
  if (b.status === 'paused') return true;
  const held = b.spentMicro + b.reservedMicro;
  const cap = capMicro(b);
  return held >= cap || held + estimateMicro > cap;
}

/** The resume response's flag: the row will pause again on its next call (a cap row at or over its cap). */
export const willRepause = (b: BudgetNumbers): boolean => b.mode === 'cap' && b.spentMicro >= capMicro(b);
