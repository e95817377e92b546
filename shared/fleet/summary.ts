// Spec "Smaller resources" → "Fleet summary": a read-only join of live agent
// counts per runtime, each runtime's adapter class and health, the board's
// last 24 hours and governance budget counts. Field names are svc's (README
// "Fleet summary"). Every figure is a GROUP BY in SQLite, read in one
// deferred transaction so the parts agree with each other.
import type { Db } from '../db/open.ts';
import type { ConnectionStatus } from '../gateway/connection.ts';
import { adapterClass, gatewayHealth, unreportedHealth, type RuntimeHealth } from './runtimes.ts';
import { createBoardRollup, type BoardRollup } from './board-rollup.ts';
import { createBudgetCounts, type BudgetCounts } from './budgets.ts';

/** The runtime that is always listed: the gateway link reports for it. */
export const GATEWAY_RUNTIME = 'gateway';

export interface AgentCounts {
  total: number;
  /** Agent row status (`idle`, `running`, `error`, ...) to count. */
  byStatus: Record<string, number>;
}

export interface RuntimeSummary {
  /** Open set: `gateway`, `native`, `cli-a`, ... */
  runtime: string;
  adapter: string;
  agents: AgentCounts;
  health: RuntimeHealth;
}

export interface FleetSummary {
  generatedAt: number;
  /** Live (non-archived) agents across every runtime. */
  agents: AgentCounts;
  /** The gateway first, then by runtime id. */
  runtimes: RuntimeSummary[];
  board: BoardRollup;
  budgets: BudgetCounts;
}

export interface FleetSummaryDeps {
  db: Db;
  /** The gateway link's state (never its URL or token). */
  gatewayStatus: () => ConnectionStatus;
  now?: () => number;
}

function addCount(counts: AgentCounts, status: string, n: number): void {
  counts.total += n;
  counts.byStatus[status] = (counts.byStatus[status] ?? 0) + n;
}

export function createFleetSummary({ db, gatewayStatus, now = Date.now }: FleetSummaryDeps): () => FleetSummary {
  const agentStmt = db.prepare(
    `SELECT runtime, status, COUNT(*) AS n FROM agents WHERE is_archived = 0 GROUP BY runtime, status ORDER BY runtime, status`,
  );
  const boardRollup = createBoardRollup(db);
  const budgetCounts = createBudgetCounts(db);

  const read = db.transaction((at: number): FleetSummary => {
    const all: AgentCounts = { total: 0, byStatus: {} };
    const perRuntime = new Map<string, AgentCounts>([[GATEWAY_RUNTIME, { total: 0, byStatus: {} }]]);
    for (const r of agentStmt.all() as Array<{ runtime: string; status: string; n: number }>) {
      let counts = perRuntime.get(r.runtime);
      if (!counts) perRuntime.set(r.runtime, (counts = { total: 0, byStatus: {} }));
      addCount(counts, r.status, r.n);
      addCount(all, r.status, r.n);
    }
    const gateway = gatewayHealth(gatewayStatus());
    const runtimes = [...perRuntime]
      .sort(([a], [b]) => (a === GATEWAY_RUNTIME ? -1 : b === GATEWAY_RUNTIME ? 1 : a.localeCompare(b)))
      .map(([runtime, agents]) => ({
        runtime,
        adapter: adapterClass(runtime),
        agents,
        health: runtime === GATEWAY_RUNTIME ? gateway : unreportedHealth(),
      }));
    return { generatedAt: at, agents: all, runtimes, board: boardRollup(at), budgets: budgetCounts(at) };
  });

  return () => read(now());
}
