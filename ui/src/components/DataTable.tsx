// A table of rows in a scrollable, focusable region: the region's label
// names it for screen readers and keyboard users, the caption says how the
// rows are ordered, and the column headings come from one list.
import type { ReactNode } from 'react';

export function DataTable({ label, caption, columns, children }: { label: string; caption: string; columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border" tabIndex={0} role="region" aria-label={label}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface-2 text-muted">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className="px-3 py-2 font-medium">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
