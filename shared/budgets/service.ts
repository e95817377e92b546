// The budgets of one connection: the rows the routes manage and the ledger
// the model endpoint and the team-chat worker write through. Each thread
// builds its own over its own connection; the policy (warn threshold, hard
// cap) comes from Config.
import type { Config } from '../config.ts';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { createAuditLog } from '../governance/index.ts';
import { createBudgetLedger, type BudgetLedger } from './ledger.ts';
import { createBudgetStore, type BudgetStore } from './store.ts';

export interface BudgetService {
  store: BudgetStore;
  ledger: BudgetLedger;
}

export interface BudgetServiceDeps {
  db: Db;
  tx?: Tx;
  config: Pick<Config, 'budgetWarnPct' | 'budgetHardCapUsdCents'>;
  now?: () => number;
}

export function createBudgetService({ db, tx, config, now = Date.now }: BudgetServiceDeps): BudgetService {
  const policy = { warnPct: config.budgetWarnPct, hardCapUsdCents: config.budgetHardCapUsdCents };
  const audit = createAuditLog(db, now);
  return {
    store: createBudgetStore({ db, tx, now, audit, ...policy }),
    ledger: createBudgetLedger({ db, tx, now, audit, ...policy }),
  };
}
