// The budgets as a table: what each counts, status, the spend bar, mode,
// period, what in-flight calls have reserved, and Edit / Resume. On a phone
// status, mode and period fold under the name and what is reserved under the
// spend, so the table fits a 390 px screen; a wider one still scrolls inside
// its own focusable region, never the page.
import type { BudgetRow } from '../../api/types.ts';
import { formatCents, PERIOD_SHORT, STATUS_TEXT } from '../../features/budgets/budget-format.ts';
import { SpendBar } from './SpendBar.tsx';

const MODE_TEXT: Record<BudgetRow['mode'], string> = { cap: 'Cap', warn: 'Warn' };

const PILL: Record<BudgetRow['status'], string> = {
  active: 'border-ok text-ok',
  paused: 'border-danger text-danger',
  soft_capped: 'border-warn text-warn',
};

export function StatusPill({ status }: { status: BudgetRow['status'] }) {
  return <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${PILL[status]}`}>{STATUS_TEXT[status]}</span>;
}

function Status({ row }: { row: BudgetRow }) {
  return (
    <>
      <StatusPill status={row.status} />
      {row.status === 'active' && row.warnedPct > 0 && <span className="mt-1 block text-xs whitespace-nowrap text-warn">Warned at {row.warnedPct} %</span>}
    </>
  );
}

export function BudgetTable({ rows, titleOf, onEdit, onResume }: { rows: BudgetRow[]; titleOf: (r: BudgetRow) => string; onEdit: (r: BudgetRow) => void; onResume: (r: BudgetRow) => void }) {
  return (
    <div role="region" aria-label="Budgets table" tabIndex={0} className="relative overflow-x-auto rounded-lg border border-border bg-surface">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="px-2 py-2 sm:px-3 font-medium">Budget</th>
            <th scope="col" className="hidden px-2 py-2 sm:px-3 font-medium sm:table-cell">Status</th>
            <th scope="col" className="px-2 py-2 sm:px-3 font-medium">Spend</th>
            <th scope="col" className="hidden px-2 py-2 sm:px-3 font-medium sm:table-cell">Mode</th>
            <th scope="col" className="hidden px-2 py-2 sm:px-3 font-medium sm:table-cell">Period</th>
            <th scope="col" className="hidden px-2 py-2 sm:px-3 font-medium sm:table-cell">Reserved</th>
            <th scope="col" className="px-2 py-2 sm:px-3 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const title = titleOf(r);
            return (
              <tr key={r.id} className="border-b border-border last:border-b-0">
                <th scope="row" className="px-2 py-2 sm:px-3 font-medium">
                  {title}
                  {/* On a phone status, mode and period fold under the name. */}
                  <span className="mt-1 flex flex-col items-start gap-1 text-xs font-normal text-muted sm:hidden">
                    <Status row={r} />
                    <span>
                      {MODE_TEXT[r.mode]} · {PERIOD_SHORT[r.period]}
                    </span>
                  </span>
                </th>
                <td className="hidden px-2 py-2 sm:px-3 sm:table-cell">
                  <Status row={r} />
                </td>
                <td className="px-2 py-2 sm:px-3">
                  <SpendBar row={r} title={title} />
                  <span className="mt-1 block text-xs whitespace-nowrap text-muted sm:hidden">Reserved {formatCents(r.reservedUsdCents)}</span>
                </td>
                <td className="hidden px-2 py-2 sm:px-3 sm:table-cell">{MODE_TEXT[r.mode]}</td>
                <td className="hidden px-2 py-2 sm:px-3 whitespace-nowrap sm:table-cell">{PERIOD_SHORT[r.period]}</td>
                <td className="hidden px-2 py-2 sm:px-3 whitespace-nowrap sm:table-cell">{formatCents(r.reservedUsdCents)}</td>
                <td className="px-2 py-2 sm:px-3">
                  <div className="flex flex-col items-stretch justify-end gap-2 sm:flex-row">
                    <button type="button" className="btn" aria-label={`Edit ${title}`} onClick={() => onEdit(r)}>
                      Edit
                    </button>
                    {r.status === 'paused' && (
                      <button type="button" className="btn btn-primary" aria-label={`Resume ${title}`} onClick={() => onResume(r)}>
                        Resume
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
