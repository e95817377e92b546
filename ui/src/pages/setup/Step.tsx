// One numbered setup step: a region named by its heading, with a done/to-do
// badge (in words, not colour alone) decided by the caller from
// GET /api/system/status.
import { useId, type ReactNode } from 'react';

export function Step({ n, title, done, children }: { n: number; title: string; done: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <li>
      <section aria-labelledby={id} className="card">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={id} className="font-semibold">
            {n}. {title}
          </h2>
          <span className={`rounded-full px-2 text-xs font-semibold ${done ? 'bg-ok text-surface' : 'bg-surface-2 text-muted'}`}>
            {done ? 'Done' : 'To do'}
          </span>
        </div>
        <div className="mt-2 flex flex-col gap-2 text-sm">{children}</div>
      </section>
    </li>
  );
}
