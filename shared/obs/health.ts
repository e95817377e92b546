// The fleet-health fold (spec "Fleet health", "Fleet-health entry"): one
// entry per agent seen in the window, folded in causal order. Only rows
// with an agentId count. An execution_started opens an execution for its
// agent (remembering the row's taskId); an execution_completed closes the
// most recently opened execution with the same taskId, or, when none has it,
// the most recently opened one; with none open it is ignored (its start left
// the window). Status from the open count and the quiet time (now minus the
// agent's newest ts): idle with none open; else working, stalled when quiet
// for more than 5 minutes, zombie for more than 30.
import type { Prices } from '../pricing/index.ts';
import { costOf, parseData } from './event-data.ts';
import type { WindowRow } from './window.ts';

export const STALLED_AFTER_MS = 5 * 60_000;
export const ZOMBIE_AFTER_MS = 30 * 60_000;

export type FleetStatus = 'working' | 'idle' | 'stalled' | 'zombie';

export interface FleetHealth {
  agentId: string;
  status: FleetStatus;
  lastEventTs: number;
  activeTaskId: string | null;
  openExecutions: number;
  costUsd: number;
}

interface AgentState {
  lastEventTs: number;
  /** Task ids of the open executions, oldest first. */
  open: Array<string | null>;
  costUsd: number;
}

export function statusOf(openExecutions: number, quietMs: number): FleetStatus {
  if (openExecutions === 0) return 'idle';
  if (quietMs > ZOMBIE_AFTER_MS) return 'zombie';
  if (quietMs > STALLED_AFTER_MS) return 'stalled';
  return 'working';
}

/** `rows` in ascending seq; entries sorted by agentId. A cost without its USD is priced at `prices`. */
export function foldHealth(rows: readonly WindowRow[], now: number, prices: Prices): FleetHealth[] {
  const agents = new Map<string, AgentState>();
  for (const r of rows) {
    if (r.agentId === null) continue;
    let a = agents.get(r.agentId);
    if (!a) {
      a = { lastEventTs: r.ts, open: [], costUsd: 0 };
      agents.set(r.agentId, a);
    }
    if (r.ts > a.lastEventTs) a.lastEventTs = r.ts;
    if (r.kind === 'execution_started') a.open.push(r.taskId);
    else if (r.kind === 'execution_completed' && a.open.length > 0) {
      const i = a.open.lastIndexOf(r.taskId);
      a.open.splice(i >= 0 ? i : a.open.length - 1, 1);
    } else if (r.kind === 'cost') a.costUsd += costOf(parseData(r.data), prices).usd;
  }
  return [...agents.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([agentId, a]) => ({
      agentId,
      status: statusOf(a.open.length, now - a.lastEventTs),
      lastEventTs: a.lastEventTs,
      activeTaskId: a.open.length > 0 ? (a.open[a.open.length - 1] ?? null) : null,
      openExecutions: a.open.length,
      costUsd: a.costUsd,
    }));
}
