// A budget's spend as a meter: spent against the limit plus grace, with the
// amounts and the share as text beside it (and as the meter's value text).
import type { BudgetRow } from '../../api/types.ts';
import { formatCents, spendShare } from '../../features/budgets/budget-format.ts';

const FILL: Record<BudgetRow['status'], string> = { active: 'bg-accent', paused: 'bg-danger', soft_capped: 'bg-warn' };

export function SpendBar({ row, title }: { row: BudgetRow; title: string }) {
  const { max, now, pct } = spendShare(row);
  const text = `${formatCents(row.spentUsdCents)} of ${formatCents(max)} (${pct} %)`;
  return (
    <div className="flex min-w-28 flex-col gap-1 sm:min-w-40">
      <div
        role="meter"
        aria-label={`Spend of ${title}`}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={now}
        aria-valuetext={text}
        className="h-2 w-full overflow-hidden rounded-full bg-surface-2"
      >
        <div className={`h-full ${FILL[row.status]}`} style={{ width: `${Math.min(100, pct)}%` }} />
      </div>
      <span className="text-xs">
        {text}
        {row.graceUsdCents > 0 && <span className="text-muted"> · includes {formatCents(row.graceUsdCents)} grace</span>}
      </span>
    </div>
  );
}
