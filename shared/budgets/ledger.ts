// The budget ledger: reserve a call's estimated cost under every budget that
// applies before the call is forwarded, settle it to the actual cost when the
// call ends, or release it. Each operation is one IMMEDIATE transaction on
// the caller's connection (the supervisor's for the model endpoint, where it
// nests as a savepoint in a group commit; the team-chat worker's own for
// fallback metering): SQLite's single writer makes
// the check-and-reserve atomic across threads and processes, so concurrent
// calls against one cap never reserve past it.
//
// The ledger writes audit rows itself (inside its transaction: the row and
// its effect commit together), never events: callers turn the transitions it
// returns into events with budgetEvents (events.ts).
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { createAuditLog, type AuditLog } from '../governance/index.ts';
import { budgetLabel, capText } from './events.ts';
import { microToUsd, usdToMicro } from './money.ts';
import { BUDGET_COLUMNS, createBudgetRows, numbersOf, resetIfRolled, type BudgetPolicy, type StoredBudget } from './rows.ts';
import type { BudgetRow, BudgetTransition, CallScope, ReserveResult } from './schemas.ts';
import { afterSpend, refuses } from './status.ts';

export interface BudgetLedger {
  /**
   * One IMMEDIATE transaction: period resets, then every applying budget; a
   * cap row that is paused, or whose spent + reserved + estimate would
   * exceed limit + grace, refuses: that row becomes paused (cause
   * 'refusal') and nothing is reserved. Else one reservation per applying
   * budget (warn rows too). Reserving a callId twice returns the first.
   */
  reserve(callId: string, scope: CallScope, estimateUsd: number): ReserveResult;
  /**
   * A call in flight needs more than it reserved (its answer runs past the
   * estimate): one IMMEDIATE transaction adds `addUsd` to each of its open
   * reservations, unless a cap row among them cannot hold it; then nothing
   * changes and that row is returned (the caller ends the answer there).
   */
  extend(callId: string, addUsd: number): { ok: true } | { ok: false; refusedBy: BudgetRow };
  /** Reservation → spend at actualUsd (may exceed the estimate); idempotent per callId. */
  settle(callId: string, actualUsd: number): BudgetTransition[];
  /** Reservation dropped, nothing spent; idempotent. */
  release(callId: string): void;
  /** Fallback metering (a call that did not pass svc's endpoint): spend after the fact; may pause. */
  recordSpend(scope: CallScope, usd: number): BudgetTransition[];
  /** Whether any cap budget (the hard cap's row included) applies to scope: a call there must have a known price. */
  capApplies(scope: CallScope): boolean;
  /** The first paused cap budget that applies to scope, else null. */
  blockedBy(scope: CallScope): BudgetRow | null;
  /**
   * At boot: every open reservation is settled at its reserved amount (the
   * provider may have billed a call svc lost track of; counting the worst
   * case never lets spend through). Returns how many calls were recovered.
   */
  recoverOpen(): number;
}

export interface LedgerDeps extends BudgetPolicy {
  db: Db;
  /** The thread's Tx when it has one (its after-commit hooks then see ledger commits as theirs); else the ledger's own. */
  tx?: Tx;
  now?: () => number;
  audit?: AuditLog;
}

interface OpenReservation {
  budget_id: string;
  amount_micro_usd: number;
}

export function createBudgetLedger(deps: LedgerDeps): BudgetLedger {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const policy: BudgetPolicy = { warnPct: deps.warnPct, hardCapUsdCents: deps.hardCapUsdCents };
  const audit = deps.audit ?? createAuditLog(db, now);
  const rows = createBudgetRows(db, policy);
  const immediate = <A extends unknown[], R>(fn: (...args: A) => R): ((...args: A) => R) => {
    if (deps.tx) {
      const tx = deps.tx;
      return (...args) => tx.run(() => fn(...args));
    }
    // Built once: db.transaction() makes a new wrapper per call.
    const t = db.transaction(fn);
    return (...args) => t.immediate(...args);
  };

  const anyOf = db.prepare(`SELECT budget_id FROM budget_reservations WHERE call_id = ?`).pluck();
  const insertReservation = db.prepare(
    `INSERT INTO budget_reservations (call_id, budget_id, amount_micro_usd, state, created_at) VALUES (?, ?, ?, 'open', ?)`,
  );
  // Reservations are transient: holding one does not count as an update of the row (updated_at), spend does.
  const addReserved = db.prepare(`UPDATE budgets SET reserved_micro_usd = reserved_micro_usd + ? WHERE id = ?`);
  const closeOpen = db.prepare(
    `UPDATE budget_reservations SET state = @state, settled_micro_usd = @settled, closed_at = @at
     WHERE call_id = @callId AND state = 'open' RETURNING budget_id, amount_micro_usd`,
  );
  // Spend lands in SQL (one statement per budget, the row read back); status is written only when it changes.
  const addSpent = db.prepare(
    `UPDATE budgets SET spent_micro_usd = spent_micro_usd + @add, reserved_micro_usd = max(0, reserved_micro_usd - @unreserve),
       updated_at = CASE WHEN @add > 0 THEN @at ELSE updated_at END
     WHERE id = @id RETURNING ${BUDGET_COLUMNS}`,
  );
  const setStatus = db.prepare(`UPDATE budgets SET status = ?, warned_pct = ?, updated_at = ? WHERE id = ?`);
  const allOpen = db.prepare(`SELECT DISTINCT call_id, amount_micro_usd FROM budget_reservations WHERE state = 'open'`);

  /** The row as of now: a rolled-over period is reset and written first. */
  const current = (r: StoredBudget, at: number): StoredBudget => {
    const reset = resetIfRolled(r, at, policy);
    if (!reset) return r;
    rows.update(reset);
    return reset;
  };

  const auditPaused = (b: StoredBudget, cause: 'spend' | 'refusal', at: number) => {
    const row = rows.json(b);
    const label = budgetLabel(row);
    const why = cause === 'refusal' ? 'a call was refused' : 'spend reached the cap';
    audit.append({
      kind: 'cap_hit',
      agentId: b.scope === 'agent' ? b.scope_id : null,
      subject: label,
      summary: `budget ${label} paused: ${why} (cap ${capText(row)})`,
      data: { budgetId: b.id, cause, spentMicroUsd: b.spent_micro_usd, reservedMicroUsd: b.reserved_micro_usd, at },
    });
  };
  const auditWarning = (b: StoredBudget, pct: number) => {
    const row = rows.json(b);
    const label = budgetLabel(row);
    audit.append({
      kind: 'budget',
      agentId: b.scope === 'agent' ? b.scope_id : null,
      subject: label,
      summary: `budget ${label} at ${pct} % of ${capText(row)}`,
      data: { budgetId: b.id, warnedPct: pct, spentMicroUsd: b.spent_micro_usd },
    });
  };

  /**
   * Adds spend (and drops a reservation) on one budget, recomputes its
   * status; a transition when something changed that people see. A period
   * that rolled over is reset first, so the spend counts in the new one.
   */
  const spend = (id: string, addMicro: number, unreserveMicro: number, at: number): BudgetTransition | null => {
    const updated = addSpent.get({ id, add: addMicro, unreserve: unreserveMicro, at }) as StoredBudget | undefined;
    // The budget row cannot be deleted (no delete route); a missing one is a hand-edited database: nothing to count.
    if (!updated) return null;
    const reset = resetIfRolled({ ...updated, spent_micro_usd: updated.spent_micro_usd - addMicro }, at, policy);
    const before = reset ?? updated;
    const next: StoredBudget = reset ? { ...reset, spent_micro_usd: addMicro, updated_at: at } : { ...updated };
    const s = afterSpend(numbersOf(next, policy), policy.warnPct);
    const changed = s.status !== next.status || s.warnedPct !== next.warned_pct;
    next.status = s.status;
    next.warned_pct = s.warnedPct;
    if (reset) rows.update(next);
    else if (changed) setStatus.run(s.status, s.warnedPct, at, id);
    if (s.status === 'paused' && before.status !== 'paused') auditPaused(next, 'spend', at);
    if (s.crossedPct !== null) auditWarning(next, s.crossedPct);
    if (s.status === before.status && s.crossedPct === null) return null;
    return { budget: rows.json(next), from: before.status, to: s.status, crossedPct: s.crossedPct, cause: 'spend' };
  };

  const close = (callId: string, actualMicro: number | null): BudgetTransition[] => {
    const at = now();
    const closed = closeOpen.all({ state: actualMicro === null ? 'released' : 'settled', settled: actualMicro, at, callId }) as OpenReservation[];
    const out: BudgetTransition[] = [];
    for (const res of closed) {
      const t = spend(res.budget_id, actualMicro ?? 0, res.amount_micro_usd, at);
      if (t) out.push(t);
    }
    return out;
  };

  const reserveTx = immediate((callId: string, scope: CallScope, estimateUsd: number): ReserveResult => {
    const existing = anyOf.all(callId) as string[];
    if (existing.length > 0) return { ok: true, reservedUsd: microToUsd(usdToMicro(estimateUsd)), budgetIds: existing };
    const at = now();
    const estimate = usdToMicro(estimateUsd);
    const applying = rows.applying(scope).map((r) => current(r, at));
    const refusing = applying.find((r) => refuses(numbersOf(r, policy), estimate));
    if (refusing) {
      const transitions: BudgetTransition[] = [];
      let refusedBy = refusing;
      if (refusing.status !== 'paused') {
        refusedBy = { ...refusing, status: 'paused', updated_at: at };
        rows.update(refusedBy);
        auditPaused(refusedBy, 'refusal', at);
        transitions.push({ budget: rows.json(refusedBy), from: refusing.status, to: 'paused', crossedPct: null, cause: 'refusal' });
      }
      return { ok: false, refusedBy: rows.json(refusedBy), transitions };
    }
    for (const r of applying) {
      insertReservation.run(callId, r.id, estimate, at);
      addReserved.run(estimate, r.id);
    }
    return { ok: true, reservedUsd: microToUsd(estimate), budgetIds: applying.map((r) => r.id) };
  });

  const openOf = db.prepare(`SELECT budget_id, amount_micro_usd FROM budget_reservations WHERE call_id = ? AND state = 'open'`);
  const growReservation = db.prepare(`UPDATE budget_reservations SET amount_micro_usd = amount_micro_usd + ? WHERE call_id = ? AND state = 'open'`);
  const extendTx = immediate((callId: string, addUsd: number): { ok: true } | { ok: false; refusedBy: BudgetRow } => {
    const add = usdToMicro(addUsd);
    const at = now();
    const held = (openOf.all(callId) as OpenReservation[]).map((o) => rows.byId(o.budget_id)).filter((r): r is StoredBudget => r !== null);
    const refusing = held.map((r) => current(r, at)).find((r) => refuses(numbersOf(r, policy), add));
    if (refusing) return { ok: false, refusedBy: rows.json(refusing) };
    growReservation.run(add, callId);
    for (const r of held) addReserved.run(add, r.id);
    return { ok: true };
  });

  const settleTx = immediate((callId: string, actualUsd: number) => close(callId, usdToMicro(actualUsd)));
  const releaseTx = immediate((callId: string) => void close(callId, null));

  const recordSpendTx = immediate((scope: CallScope, usd: number): BudgetTransition[] => {
    const at = now();
    const micro = usdToMicro(usd);
    const out: BudgetTransition[] = [];
    for (const r of rows.applying(scope)) {
      const t = spend(r.id, micro, 0, at);
      if (t) out.push(t);
    }
    return out;
  });

  // Re-read inside the transaction: another connection may have written the row since the check.
  const resetTx = immediate((ids: string[], at: number) => {
    for (const id of ids) {
      const r = rows.byId(id);
      if (r) current(r, at);
    }
  });

  const recoverTx = immediate((): number => {
    // Settled at what was reserved (a call reserves the same amount under each of its budgets).
    const open = allOpen.all() as Array<{ call_id: string; amount_micro_usd: number }>;
    const calls = new Set<string>();
    for (const o of open) {
      if (calls.has(o.call_id)) continue;
      calls.add(o.call_id);
      close(o.call_id, o.amount_micro_usd);
    }
    return calls.size;
  });

  return {
    reserve: (callId, scope, estimateUsd) => reserveTx(callId, scope, estimateUsd),
    extend: (callId, addUsd) => extendTx(callId, addUsd),
    settle: (callId, actualUsd) => settleTx(callId, actualUsd),
    release: (callId) => releaseTx(callId),
    recordSpend: (scope, usd) => (usd > 0 ? recordSpendTx(scope, usd) : []),
    capApplies: (scope) => policy.hardCapUsdCents !== null || rows.applying(scope).some((r) => r.mode === 'cap'),
    blockedBy(scope) {
      const at = now();
      let applying = rows.applying(scope);
      // Writes only when a period rolled over (rare): the common check is a read.
      const stale = applying.filter((r) => resetIfRolled(r, at, policy) !== null);
      if (stale.length > 0) {
        resetTx(stale.map((r) => r.id), at);
        applying = rows.applying(scope);
      }
      const paused = applying.find((r) => r.mode === 'cap' && r.status === 'paused');
      return paused ? rows.json(paused) : null;
    },
    recoverOpen: () => recoverTx(),
  };
}
