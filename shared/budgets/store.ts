// Budget rows for the Governance routes (spec "Budget row", "Budget
// status"): list, upsert (a new limit recomputes status from spend), resume
// (optional grace), the boot-time hard-cap row and the health report's
// posture. Spend itself moves only through the ledger (ledger.ts).
//
// The hard cap (SVC_BUDGET_HARD_CAP_USD_CENTS) is the one limit no route
// lifts: while it is set, the global budget for every model (the row every
// call reserves under) stays a cap, over no period, with limit plus grace at
// or under it. A POST or resume that would change that is a 400 that writes
// nothing; a row stored otherwise (before the hard cap was set) is rewritten
// at boot, and until then enforced and shown as if it were (rows.ts inForce).
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { invalid, notFound } from '../errors.ts';
import { createAuditLog, type AuditLog } from '../governance/index.ts';
import { uuidv7 } from '../ids.ts';
import { budgetLabel, capText } from './events.ts';
import { formatUsdCents } from './money.ts';
import { periodStartOf } from './period.ts';
import { createBudgetRows, inForce, isHardCapRow, normaliseModel, numbersOf, resetIfRolled, type BudgetPolicy, type StoredBudget } from './rows.ts';
import { BUDGET_MESSAGES, GLOBAL_SCOPE_ID, type BudgetResume, type BudgetRow, type BudgetScope, type BudgetUpsert, type ResumedBudget } from './schemas.ts';
import { afterResume, fromSpend, willRepause } from './status.ts';
import { createTargetCheck, type TargetExists } from './targets.ts';

export type BudgetPosture = 'hard-cap' | 'enforce' | 'track-and-warn';

export interface BudgetStore {
  /** Every row, newest-updated first, period resets applied. */
  list(): BudgetRow[];
  /** Creates or replaces limit, mode and period of (scope, scopeId, model); grace back to 0; status from spend. */
  upsert(body: BudgetUpsert): BudgetRow;
  /** Active again (warn rows: by spend), grace added; not_found when no such row. */
  resume(scope: BudgetScope, scopeId: string, body?: Partial<BudgetResume>): ResumedBudget;
  /**
   * At boot, with a hard cap set: creates the global row for every model as a
   * cap at the hard cap when there is none, or rewrites the existing one as it
   * is enforced (a cap, no period, limit plus grace at or under the hard cap).
   */
  ensureHardCapRow(): BudgetRow | null;
  /** The health report's budgetPosture. */
  posture(): BudgetPosture;
}

export interface StoreDeps extends BudgetPolicy {
  db: Db;
  tx?: Tx;
  now?: () => number;
  audit?: AuditLog;
  /** Whether a team, agent or task exists (default: svc's tables). */
  exists?: TargetExists;
}

/** The 400 of a target svc does not know, in the same details shape as a validation failure. */
const noSuchTarget = (scope: Exclude<BudgetScope, 'global'>) =>
  invalid(BUDGET_MESSAGES.invalidBudget, { details: { formErrors: [], fieldErrors: { scopeId: [BUDGET_MESSAGES.noSuch[scope]] } } });

const HC = BUDGET_MESSAGES.hardCap;

/** What a POST may not do to the hard cap's row: its field messages (empty when nothing is refused). */
function hardCapRefusals(body: BudgetUpsert, hard: number): Record<string, string[]> {
  const cap = formatUsdCents(hard);
  const fields: Record<string, string[]> = {};
  if (body.mode !== 'cap') fields.mode = [HC.mode(cap)];
  if (body.limitUsdCents > hard) fields.limitUsdCents = [HC.limit(cap)];
  if (body.period !== 'none') fields.period = [HC.period(cap)];
  return fields;
}

export function createBudgetStore(deps: StoreDeps): BudgetStore {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const policy: BudgetPolicy = { warnPct: deps.warnPct, hardCapUsdCents: deps.hardCapUsdCents };
  const audit = deps.audit ?? createAuditLog(db, now);
  const exists = deps.exists ?? createTargetCheck(db);
  const rows = createBudgetRows(db, policy);
  const run = <T>(fn: () => T): T => (deps.tx ? deps.tx.run(fn) : db.transaction(fn).immediate());
  const anyCap = db.prepare(`SELECT 1 FROM budgets WHERE mode = 'cap' LIMIT 1`).pluck();

  const record = (r: StoredBudget, summary: string, data: Record<string, unknown>) => {
    const label = budgetLabel(rows.json(r));
    audit.append({ kind: 'budget', agentId: r.scope === 'agent' ? r.scope_id : null, subject: label, summary: `budget ${label} ${summary}`, data: { budgetId: r.id, ...data } });
  };

  const withStatus = (r: StoredBudget): StoredBudget => {
    const s = fromSpend(numbersOf(r, policy), policy.warnPct);
    return { ...r, status: s.status, warned_pct: s.warnedPct };
  };

  const insertNew = (body: BudgetUpsert, model: string, at: number): StoredBudget => {
    const r: StoredBudget = withStatus({
      id: uuidv7(at),
      scope: body.scope,
      scope_id: body.scopeId,
      model,
      mode: body.mode,
      period: body.period,
      limit_usd_cents: body.limitUsdCents,
      spent_micro_usd: 0,
      reserved_micro_usd: 0,
      grace_usd_cents: 0,
      status: 'active',
      warned_pct: 0,
      period_start: periodStartOf(body.period, at),
      created_at: at,
      updated_at: at,
    });
    rows.insert(r);
    return r;
  };

  const describe = (r: StoredBudget) => `${r.mode} at ${formatUsdCents(r.limit_usd_cents)}${r.period === 'none' ? '' : ` (${r.period})`}`;

  const current = (r: StoredBudget, at: number): StoredBudget => {
    const reset = resetIfRolled(r, at, policy);
    if (!reset) return r;
    rows.update(reset);
    return reset;
  };

  const upsertTx = (body: BudgetUpsert): BudgetRow =>
    run(() => {
      const at = now();
      const model = normaliseModel(body.model);
      const found = rows.byKey(body.scope, body.scopeId, model);
      if (!found) {
        const created = insertNew(body, model, at);
        record(created, `created: ${describe(created)}`, { limitUsdCents: created.limit_usd_cents, mode: created.mode, period: created.period });
        return rows.json(created);
      }
      const before = current(found, at);
      const periodChanged = before.period !== body.period;
      const next = withStatus({
        ...before,
        mode: body.mode,
        period: body.period,
        limit_usd_cents: body.limitUsdCents,
        grace_usd_cents: 0,
        period_start: periodChanged ? periodStartOf(body.period, at) : before.period_start,
        updated_at: at,
      });
      rows.update(next);
      record(next, `set: ${describe(next)}, status ${next.status}`, {
        limitUsdCents: next.limit_usd_cents,
        previousLimitUsdCents: before.limit_usd_cents,
        mode: next.mode,
        period: next.period,
        from: before.status,
        to: next.status,
      });
      return rows.json(next);
    });

  return {
    list() {
      const at = now();
      const all = rows.all();
      if (all.some((r) => resetIfRolled(r, at, policy) !== null)) {
        run(() => {
          for (const r of rows.all()) current(r, at);
        });
        return rows.all().map((r) => rows.json(r));
      }
      return all.map((r) => rows.json(r));
    },
    upsert(body) {
      if (body.scope !== 'global' && !exists(body.scope, body.scopeId)) throw noSuchTarget(body.scope);
      const hard = policy.hardCapUsdCents;
      if (hard !== null && body.scope === 'global' && normaliseModel(body.model) === '') {
        const fieldErrors = hardCapRefusals(body, hard);
        if (Object.keys(fieldErrors).length > 0) throw invalid(BUDGET_MESSAGES.invalidBudget, { details: { formErrors: [], fieldErrors } });
      }
      return upsertTx(body);
    },
    resume: (scope, scopeId, body = {}) =>
      run(() => {
        const at = now();
        const found = rows.byKey(scope, scopeId, normaliseModel(body.model));
        if (!found) throw notFound(BUDGET_MESSAGES.notFound);
        const before = current(found, at);
        const grace = body.graceUsdCents ?? 0;
        const hard = policy.hardCapUsdCents;
        if (hard !== null && grace > 0 && isHardCapRow(before)) {
          const enforced = inForce(before, hard);
          const room = hard - enforced.limit_usd_cents - enforced.grace_usd_cents;
          if (grace > room) {
            const graceUsdCents = [HC.grace(formatUsdCents(hard), formatUsdCents(room))];
            throw invalid(BUDGET_MESSAGES.invalidResume, { details: { formErrors: [], fieldErrors: { graceUsdCents } } });
          }
        }
        const withGrace: StoredBudget = { ...before, grace_usd_cents: before.grace_usd_cents + grace, updated_at: at };
        const s = afterResume(numbersOf(withGrace, policy), policy.warnPct);
        const next: StoredBudget = { ...withGrace, status: s.status, warned_pct: s.warnedPct };
        rows.update(next);
        const repause = willRepause(numbersOf(next, policy));
        const row = rows.json(next);
        record(next, `resumed${grace > 0 ? ` with ${formatUsdCents(grace)} grace` : ''}: cap ${capText(row)}, status ${next.status}`, {
          graceUsdCents: grace,
          from: before.status,
          to: next.status,
          willRepause: repause,
        });
        return { ...row, willRepause: repause };
      }),
    ensureHardCapRow() {
      const hard = policy.hardCapUsdCents;
      if (hard === null) return null;
      return run(() => {
        const found = rows.byKey('global', GLOBAL_SCOPE_ID, '');
        const at = now();
        if (found) {
          const enforced = inForce(found, hard);
          if (enforced === found) return rows.json(found);
          const next = withStatus({ ...enforced, updated_at: at });
          rows.update(next);
          record(next, `set from SVC_BUDGET_HARD_CAP_USD_CENTS: ${describe(next)} (was ${describe(found)}${found.grace_usd_cents > 0 ? ` with ${formatUsdCents(found.grace_usd_cents)} grace` : ''}), status ${next.status}`, {
            limitUsdCents: next.limit_usd_cents,
            previousLimitUsdCents: found.limit_usd_cents,
            mode: next.mode,
            previousMode: found.mode,
            period: next.period,
            graceUsdCents: next.grace_usd_cents,
            from: found.status,
            to: next.status,
            hardCap: true,
          });
          return rows.json(next);
        }
        const created = insertNew({ scope: 'global', scopeId: GLOBAL_SCOPE_ID, limitUsdCents: hard, mode: 'cap', period: 'none', model: null }, '', at);
        record(created, `created from SVC_BUDGET_HARD_CAP_USD_CENTS: ${describe(created)}`, { limitUsdCents: hard, hardCap: true });
        return rows.json(created);
      });
    },
    posture() {
      if (policy.hardCapUsdCents !== null) return 'hard-cap';
      return anyCap.get() === 1 ? 'enforce' : 'track-and-warn';
    },
  };
}

