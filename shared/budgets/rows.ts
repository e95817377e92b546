// Budget rows as SQLite stores them, and their JSON (schemas.ts BudgetRow).
// Plain SQL over whichever connection the caller has (the supervisor's, the
// team-chat worker's): nothing here is per-thread.
import type { Db } from '../db/open.ts';
import { microToCentsCeil, microToCentsFloor, microToUsd } from './money.ts';
import { periodRolledOver, periodStartOf, type BudgetPeriod } from './period.ts';
import { GLOBAL_SCOPE_ID, type BudgetMode, type BudgetRow, type BudgetScope, type BudgetStatus, type CallScope } from './schemas.ts';
import { fromSpend, type BudgetNumbers } from './status.ts';
import { labelOf } from './events.ts';
import { bareModel, modelFamilies } from '../pricing/family.ts';

export interface StoredBudget {
  id: string;
  scope: BudgetScope;
  scope_id: string;
  /** '' = every model. */
  model: string;
  mode: BudgetMode;
  period: BudgetPeriod;
  limit_usd_cents: number;
  spent_micro_usd: number;
  reserved_micro_usd: number;
  grace_usd_cents: number;
  status: BudgetStatus;
  warned_pct: number;
  period_start: number | null;
  created_at: number;
  updated_at: number;
}

/** What the ledger and the store share: the settings that shape a row's numbers. */
export interface BudgetPolicy {
  /** The first warning threshold of warn budgets, percent (SVC_BUDGET_WARN_PCT). */
  warnPct: number;
  /** SVC_BUDGET_HARD_CAP_USD_CENTS: caps the global budget's limit; null = none. */
  hardCapUsdCents: number | null;
}

/**
 * A model name as budgets compare it: lowercased, without a `<provider>/`
 * prefix (as shared/pricing looks prices up); '' for none. A call counts under
 * a per-model budget when the budget's model is in the call model's family
 * (`gpt-4o-2024-08-06` under `gpt-4o`: shared/pricing/family.ts).
 */
export function normaliseModel(model: string | null | undefined): string {
  return model === null || model === undefined ? '' : bareModel(model);
}

/** A call's ids of one scope: its own and the further ones, once each. */
const idsOf = (id: string | null, more: readonly string[] | undefined): string[] => [...new Set([...(id === null ? [] : [id]), ...(more ?? [])])];

/** The row the hard cap applies to: global, all, every model (every call reserves under it). */
export const isHardCapRow = (r: Pick<StoredBudget, 'scope' | 'scope_id' | 'model'>): boolean =>
  r.scope === 'global' && r.scope_id === GLOBAL_SCOPE_ID && r.model === '';

/**
 * The row as it is enforced. Under a hard cap the global row for every model
 * is a cap, over no period (the hard cap bounds all spend, not a day's),
 * whose limit plus grace stays at or under the hard cap, whatever the stored
 * row says: the routes refuse to store anything else and the boot rewrites an
 * older row (store.ts), so this only matters for a row written by hand or by
 * an svc without the hard cap, and it keeps every thread's ledger safe even then.
 */
export function inForce(r: StoredBudget, hardCapUsdCents: number | null): StoredBudget {
  if (hardCapUsdCents === null || !isHardCapRow(r)) return r;
  const limit = Math.min(r.limit_usd_cents, hardCapUsdCents);
  const grace = Math.min(r.grace_usd_cents, hardCapUsdCents - limit);
  if (r.mode === 'cap' && r.period === 'none' && limit === r.limit_usd_cents && grace === r.grace_usd_cents) return r;
  return { ...r, mode: 'cap', period: 'none', period_start: null, limit_usd_cents: limit, grace_usd_cents: grace };
}

export function numbersOf(stored: StoredBudget, policy: BudgetPolicy): BudgetNumbers {
  const r = inForce(stored, policy.hardCapUsdCents);
  return {
    mode: r.mode,
    limitUsdCents: r.limit_usd_cents,
    graceUsdCents: r.grace_usd_cents,
    spentMicro: r.spent_micro_usd,
    reservedMicro: r.reserved_micro_usd,
    status: r.status,
    warnedPct: r.warned_pct,
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toBudgetRow(r: StoredBudget, teamName: string | null = null): BudgetRow {
  const model = r.model === '' ? null : r.model;
  return {
    id: r.id,
    scope: r.scope,
    scopeId: r.scope_id,
    model,
    label: labelOf({ scope: r.scope, scopeId: r.scope_id, model }, teamName),
    mode: r.mode,
    period: r.period,
    limitUsdCents: r.limit_usd_cents,
    spentUsdCents: microToCentsFloor(r.spent_micro_usd),
    spentUsd: microToUsd(r.spent_micro_usd),
    reservedUsdCents: microToCentsCeil(r.reserved_micro_usd),
    graceUsdCents: r.grace_usd_cents,
    status: r.status,
    warnedPct: r.warned_pct,
    periodStartedAt: iso(r.period_start),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/**
 * The lazy period reset: a row whose period has rolled over gets spend,
 * grace and warnings zeroed and its status recomputed (reservations of calls
 * in flight stay: their settlement counts in the new period). Returns the
 * reset row, or null when nothing changed. The caller writes it.
 */
export function resetIfRolled(r: StoredBudget, now: number, policy: BudgetPolicy): StoredBudget | null {
  const enforced = inForce(r, policy.hardCapUsdCents);
  if (!periodRolledOver(enforced.period, enforced.period_start, now)) return null;
  const next: StoredBudget = { ...r, spent_micro_usd: 0, grace_usd_cents: 0, warned_pct: 0, period_start: periodStartOf(r.period, now), updated_at: now };
  const s = fromSpend(numbersOf(next, policy), policy.warnPct);
  return { ...next, status: s.status, warned_pct: s.warnedPct };
}

export const BUDGET_COLUMNS = `id, scope, scope_id, model, mode, period, limit_usd_cents, spent_micro_usd, reserved_micro_usd,
  grace_usd_cents, status, warned_pct, period_start, created_at, updated_at`;

export interface BudgetRows {
  /** Every budget that applies to a call of `scope` (see docs/budgets.md "Applies"). */
  applying(scope: CallScope): StoredBudget[];
  byKey(scope: BudgetScope, scopeId: string, model: string): StoredBudget | null;
  byId(id: string): StoredBudget | null;
  /** Newest-updated first. */
  all(): StoredBudget[];
  insert(r: StoredBudget): void;
  /** Writes the mutable columns of `r` (by id). */
  update(r: StoredBudget): void;
  /**
   * The row's JSON, its label naming a team by its name; the global row is
   * shown as it is enforced under a hard cap (inForce), so a cap people read
   * is the cap that refuses.
   */
  json(r: StoredBudget): BudgetRow;
}

export function createBudgetRows(db: Db, policy: Pick<BudgetPolicy, 'hardCapUsdCents'> = { hardCapUsdCents: null }): BudgetRows {
  const applying = db.prepare(
    `SELECT ${BUDGET_COLUMNS} FROM budgets
     WHERE (model = '' OR model IN (SELECT value FROM json_each(@models)))
       AND ((scope = 'global' AND scope_id = '${GLOBAL_SCOPE_ID}') OR (scope = 'team' AND scope_id IN (SELECT value FROM json_each(@teamIds)))
         OR (scope = 'agent' AND scope_id = @agentId) OR (scope = 'task' AND scope_id IN (SELECT value FROM json_each(@taskIds))))
     ORDER BY scope, scope_id, model`,
  );
  const byKey = db.prepare(`SELECT ${BUDGET_COLUMNS} FROM budgets WHERE scope = ? AND scope_id = ? AND model = ?`);
  const byId = db.prepare(`SELECT ${BUDGET_COLUMNS} FROM budgets WHERE id = ?`);
  const all = db.prepare(`SELECT ${BUDGET_COLUMNS} FROM budgets ORDER BY updated_at DESC, id DESC`);
  const insert = db.prepare(
    `INSERT INTO budgets (${BUDGET_COLUMNS}) VALUES (@id, @scope, @scope_id, @model, @mode, @period, @limit_usd_cents, @spent_micro_usd,
       @reserved_micro_usd, @grace_usd_cents, @status, @warned_pct, @period_start, @created_at, @updated_at)`,
  );
  const update = db.prepare(
    `UPDATE budgets SET mode = @mode, period = @period, limit_usd_cents = @limit_usd_cents, spent_micro_usd = @spent_micro_usd,
       reserved_micro_usd = @reserved_micro_usd, grace_usd_cents = @grace_usd_cents, status = @status, warned_pct = @warned_pct,
       period_start = @period_start, updated_at = @updated_at
     WHERE id = @id`,
  );
  const teamName = db.prepare(`SELECT name FROM teams WHERE id = ?`).pluck();
  return {
    json: (r) => {
      const name = r.scope === 'team' ? ((teamName.get(r.scope_id) as string | undefined) ?? null) : null;
      return toBudgetRow(inForce(r, policy.hardCapUsdCents), name);
    },
    applying: (s) =>
      applying.all({
        models: JSON.stringify(s.model === null ? [] : modelFamilies(s.model)),
        teamIds: JSON.stringify(idsOf(s.teamId, s.teamIds)),
        agentId: s.agentId,
        taskIds: JSON.stringify(idsOf(s.taskId, s.taskIds)),
      }) as StoredBudget[],
    byKey: (scope, scopeId, model) => (byKey.get(scope, scopeId, model) as StoredBudget | undefined) ?? null,
    byId: (id) => (byId.get(id) as StoredBudget | undefined) ?? null,
    all: () => all.all() as StoredBudget[],
    insert: (r) => void insert.run(r),
    update: (r) => void update.run(r),
  };
}
