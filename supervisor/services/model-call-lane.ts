// The model endpoint's writes (a call's row, its reservation and settlement,
// its budget events, and its cost record and span when the ingest worker
// does not take them) on a connection of their own.
// A commit that crosses SQLite's auto-checkpoint threshold copies the WAL
// into the file and syncs it before it returns; on the supervisor's own
// connection that fell, every so often, on a call's reservation, which then
// waited for it before the call went out. This connection never checkpoints
// while the tail worker runs (it checkpoints every few seconds, PASSIVE);
// the supervisor's connection, which every other route writes through,
// keeps its own checkpoints. Both connections live on one thread and
// commit synchronously, so they never wait on each other, provided nothing
// inside a transaction here writes through the other connection: it would
// wait for this one's lock, on the same thread, for the whole busy timeout.
// Every store a call's writes touch is therefore built here, on this
// connection (the agent row a cost record ensures included). A call's reads
// are made here as well: a connection's page cache is dropped whenever
// another connection has written since its last read, so reads on the
// supervisor's connection between the lane's writes would start cold each
// call.
import type { Config } from '../../shared/config.ts';
import { createBudgetLedger, type BudgetLedger } from '../../shared/budgets/index.ts';
import { createCostRecords, type CostRecords } from '../../shared/costs/index.ts';
import { createAgentStore } from '../../shared/agents/store.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createSettingsTable, type SettingsTable } from '../../shared/db/settings-table.ts';
import { createTx, type Tx } from '../../shared/db/tx.ts';
import { createEventLog, type EventLog } from '../../shared/events/event-log.ts';
import type { EventRow } from '../../shared/events/types.ts';
import type { Logger } from '../../shared/log.ts';
import { createModelCalls, type ModelCalls } from '../../shared/model-calls/index.ts';
import type { Redactor } from '../../shared/redact.ts';

export interface ModelCallLane {
  db: Db;
  tx: Tx;
  /** The settings a call reads (the registry, prices, runaway limits): on this connection too, see below. */
  settings: SettingsTable;
  eventLog: EventLog;
  calls: ModelCalls;
  ledger: BudgetLedger;
  costs: CostRecords;
  /** Closes the connection (its writes are in the WAL; the supervisor's connection checkpoints them at close). */
  close(): void;
}

export interface ModelCallLaneDeps {
  dbPath: string;
  config: Config;
  logger: Logger;
  redactor: Redactor;
  /** false while another thread (the tail worker) checkpoints the WAL. */
  ownCheckpoints: boolean;
  /** The live fan-out's hand-off for committed event rows, as for the supervisor's own. */
  onEvents: (rows: EventRow[]) => void;
}

export function openModelCallLane(deps: ModelCallLaneDeps): ModelCallLane {
  const db = openDatabase(deps.dbPath, { migrate: false, autoCheckpoint: deps.ownCheckpoints });
  const tx = createTx(db, (err) => deps.logger.error({ err }, 'after-commit hook failed (model endpoint)'));
  const settings = createSettingsTable(db);
  const policy = { warnPct: deps.config.budgetWarnPct, hardCapUsdCents: deps.config.budgetHardCapUsdCents };
  return {
    db,
    tx,
    settings,
    eventLog: createEventLog({ db, tx, logger: deps.logger, redactor: deps.redactor, onCommitted: deps.onEvents }),
    calls: createModelCalls(db),
    ledger: createBudgetLedger({ db, tx, ...policy }),
    costs: createCostRecords({ db, tx, agents: createAgentStore(db, tx, settings) }),
    close: () => {
      if (db.open) db.close();
    },
  };
}
