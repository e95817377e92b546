// What the budgets page shows and reads, as pure functions: dollars typed
// into a field to cents, cents and dollars to text, a row's spend as a share
// of its cap, and the names of scopes, modes, periods and statuses.
import { formatUsdCents } from '../../../../shared/budgets/money.ts';
import type { BudgetRow, BudgetScope, BudgetStatus } from '../../api/types.ts';

export const SCOPES: ReadonlyArray<{ value: BudgetScope; text: string }> = [
  { value: 'global', text: 'Everything (global)' },
  { value: 'team', text: 'A team' },
  { value: 'agent', text: 'An agent' },
  { value: 'task', text: 'A board task' },
];

export const MODES = [
  { value: 'cap', text: 'Cap', hint: 'Model calls stop at the limit; the budget pauses until you resume it.' },
  { value: 'warn', text: 'Warn', hint: 'Warns at 80 % and 100 % of the limit; never stops a call.' },
] as const;

export const PERIODS = [
  { value: 'none', text: 'No reset' },
  { value: 'daily', text: 'Daily (resets at midnight, server time)' },
  { value: 'monthly', text: 'Monthly (resets on the 1st, server time)' },
] as const;

export const PERIOD_SHORT: Record<BudgetRow['period'], string> = { none: 'No reset', daily: 'Daily', monthly: 'Monthly' };

export const STATUS_TEXT: Record<BudgetStatus, string> = { active: 'Active', paused: 'Paused', soft_capped: 'Over limit (warn)' };

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 1250 → "$12.50" (the server's own formatting, shared/budgets/money.ts). */
export const formatCents = formatUsdCents;

/** A model call's cost: cents as usual, sub-cent amounts with enough digits to not read as $0.00. */
export function formatUsd(value: number | null): string {
  if (value === null) return '—';
  if (value === 0) return '$0';
  if (Math.abs(value) >= 0.01) return usd.format(value);
  return `$${value.toFixed(6).replace(/0+$/, '')}`;
}

export type DollarsParse = { ok: true; cents: number } | { ok: false; message: string };

/** "12", "12.5", "$1,200.50" → cents. More than two decimals, a sign or other text is refused here (the server never sees it). */
export function parseDollars(text: string): DollarsParse {
  const clean = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (!/^\d+(\.\d{0,2})?$|^\.\d{1,2}$/.test(clean)) {
    return { ok: false, message: 'Enter an amount in dollars, like 25 or 12.50.' };
  }
  const [whole = '0', frac = ''] = clean.split('.');
  return { ok: true, cents: Number(whole || '0') * 100 + Number(frac.padEnd(2, '0')) };
}

/** 1250 → "12.50", for a field's starting value. */
export const centsToField = (cents: number): string => (cents / 100).toFixed(2);

/** Spend against the effective cap (the limit plus any grace a resume added), for the bar. */
export function spendShare(row: Pick<BudgetRow, 'spentUsdCents' | 'limitUsdCents' | 'graceUsdCents'>): { max: number; now: number; pct: number } {
  const max = row.limitUsdCents + row.graceUsdCents;
  const pct = max > 0 ? Math.floor((row.spentUsdCents / max) * 100) : 0;
  return { max, now: Math.min(row.spentUsdCents, max), pct };
}

/** What a budget counts, for people: "Global", "Team “Ops”", "Agent Res", "Task T-12", with " for <model>". */
export function budgetTitle(row: Pick<BudgetRow, 'scope' | 'scopeId' | 'model'>, names: { teams: Map<string, string>; agents: Map<string, string> }): string {
  const base =
    row.scope === 'global'
      ? 'Global'
      : row.scope === 'team'
        ? `Team “${names.teams.get(row.scopeId) ?? row.scopeId}”`
        : row.scope === 'agent'
          ? `Agent ${names.agents.get(row.scopeId) ?? row.scopeId}`
          : `Task ${row.scopeId}`;
  return row.model ? `${base} for ${row.model}` : base;
}
