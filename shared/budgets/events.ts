// A budget's name in words, and the `error` events its transitions become.
// budgetLabel is the one place a budget is named for people: the model
// endpoint's refusal text, the team chat's meta entry, audit rows and the
// events below all use it.
import type { EventInput } from '../events/types.ts';
import { formatUsdCents } from './money.ts';
import type { BudgetRow, BudgetTransition } from './schemas.ts';

type Named = Pick<BudgetRow, 'scope' | 'scopeId' | 'model'>;

/**
 * e.g. `team “ops”`, `agent researcher`, `global`, `task T-12`, plus
 * ` for <model>` on a per-model budget. A team is named by its name when
 * svc knows it (`teamName`), else by its id.
 */
export function labelOf(row: Named, teamName: string | null = null): string {
  const base =
    row.scope === 'global' ? 'global' : row.scope === 'team' ? `team “${teamName ?? row.scopeId}”` : `${row.scope} ${row.scopeId}`;
  return row.model ? `${base} for ${row.model}` : base;
}

/** A row's label: the one it carries (built with the team's name when it was read), else one from its identity. */
export const budgetLabel = (row: Named & { label?: string }): string => row.label ?? labelOf(row);

/** The cap in force, in words: `$12.50` (limit plus grace). */
export const capText = (row: Pick<BudgetRow, 'limitUsdCents' | 'graceUsdCents'>): string =>
  formatUsdCents(row.limitUsdCents + row.graceUsdCents);

const budgetData = (b: BudgetRow) => ({
  id: b.id,
  scope: b.scope,
  scopeId: b.scopeId,
  model: b.model,
  limitUsdCents: b.limitUsdCents,
  spentUsdCents: b.spentUsdCents,
});

/**
 * The events of ledger transitions: an `error` event (errorClass
 * `BudgetExceeded`) per budget that became paused, and one (errorClass
 * `BudgetWarning`) per warning threshold crossed. `base` carries the call's
 * attribution (agent, team, task, trace).
 */
export function budgetEvents(transitions: readonly BudgetTransition[], base: Omit<EventInput, 'kind' | 'data'> = {}): EventInput[] {
  const out: EventInput[] = [];
  for (const t of transitions) {
    const label = budgetLabel(t.budget);
    if (t.to === 'paused' && t.from !== 'paused') {
      out.push({
        ...base,
        kind: 'error',
        data: { errorClass: 'BudgetExceeded', message: `budget ${label} reached its cap of ${capText(t.budget)}`, budget: budgetData(t.budget) },
      });
    }
    if (t.crossedPct !== null) {
      out.push({
        ...base,
        kind: 'error',
        data: { errorClass: 'BudgetWarning', message: `budget ${label} at ${t.crossedPct} % of ${capText(t.budget)}`, budget: budgetData(t.budget) },
      });
    }
  }
  return out;
}
