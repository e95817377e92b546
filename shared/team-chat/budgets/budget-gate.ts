// The team-chat host's side of the budget ledger (shared/budgets/ledger.ts,
// docs/budgets.md, "Reserve, settle, release"): the ledger over the host's
// own connection and Tx (plain SQL: the worker's writes and the model
// endpoint's serialise on SQLite's one writer), narrowed to what the runs ask
// of it (BudgetGate in budget-halt.ts). Fallback metering's transitions
// become events here, in the same transaction as the spend, through the
// ledger's one helper.
import { budgetEvents, budgetLabel } from '../../budgets/events.ts';
import { createBudgetLedger, type BudgetLedger } from '../../budgets/ledger.ts';
import type { BudgetPolicy } from '../../budgets/rows.ts';
import type { BudgetRow } from '../../budgets/schemas.ts';
import type { Db } from '../../db/open.ts';
import type { Tx } from '../../db/tx.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { BudgetGate, BudgetStop } from './budget-halt.ts';

export interface BudgetGateDeps {
  db: Db;
  tx: Tx;
  eventLog: Pick<EventLog, 'appendMany'>;
  now: () => number;
  policy: BudgetPolicy;
}

const stopOf = (row: BudgetRow): BudgetStop => ({ budgetId: row.id, budgetLabel: budgetLabel(row) });

export function createBudgetGate(deps: BudgetGateDeps): BudgetGate {
  // Made on first use: a host that never runs (most unit tests) prepares nothing.
  let ledger: BudgetLedger | null = null;
  const theLedger = () => (ledger ??= createBudgetLedger({ db: deps.db, tx: deps.tx, now: deps.now, ...deps.policy }));
  return {
    blockedBy(scope) {
      const row = theLedger().blockedBy(scope);
      return row ? stopOf(row) : null;
    },
    recordSpend(scope, usd, base) {
      return deps.tx.run(() => {
        const transitions = theLedger().recordSpend(scope, usd);
        if (transitions.length > 0) deps.eventLog.appendMany(budgetEvents(transitions, base));
        const paused = transitions.find((t) => t.to === 'paused' && t.from !== 'paused');
        if (paused) return stopOf(paused.budget);
        // Spend into a cap budget that was paused already halts the run too: a run that began before
        // the pause, or one under a per-model budget, which the check before a send cannot see (the
        // model of a run's calls is known only once they are made).
        const blocked = theLedger().blockedBy(scope);
        return blocked ? stopOf(blocked) : null;
      });
    },
  };
}
