// Spend recorded by svc's budget ledger on a running svc's own database file,
// as the team chat's fallback metering records a model call that did not pass
// svc's endpoint. For tests and screenshots that need budgets with spend.
import { join } from 'node:path';
import { createBudgetLedger } from '../../shared/budgets/index.ts';
import { openDatabase } from '../../shared/db/open.ts';

export function spend(home: string, scope: { agentId: string; teamId: string | null; model?: string }, usd: number): void {
  const db = openDatabase(join(home, 'svc.db'));
  try {
    createBudgetLedger({ db, warnPct: 80, hardCapUsdCents: null }).recordSpend({ taskId: null, model: null, ...scope }, usd);
  } finally {
    db.close();
  }
}
