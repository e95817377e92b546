// `/budgets` (issue 22): every budget with its spend bar and status; create
// and edit (one upsert), and resume a paused one with optional grace. When
// the resume answer says willRepause, the page warns that the next model
// call will pause the budget again.
import { useMemo, useState } from 'react';
import { useAgents } from '../../api/agents.ts';
import { useBudgets } from '../../api/budgets.ts';
import { useTeams } from '../../api/teams.ts';
import type { BudgetRow, ResumedBudget } from '../../api/types.ts';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { BudgetDialog } from './BudgetDialog.tsx';
import { budgetTitle, formatCents } from '../../features/budgets/budget-format.ts';
import { BudgetTable } from './BudgetTable.tsx';
import { ResumeDialog } from './ResumeDialog.tsx';

export default function BudgetsPage() {
  const budgets = useBudgets();
  const teams = useTeams({ includeArchived: true });
  const agents = useAgents();
  const [editing, setEditing] = useState<BudgetRow | null>(null);
  const [creating, setCreating] = useState(false);
  const [resuming, setResuming] = useState<BudgetRow | null>(null);
  const [notice, setNotice] = useState('');
  const [repause, setRepause] = useState('');

  const names = useMemo(
    () => ({ teams: new Map((teams.data?.teams ?? []).map((t) => [t.id, t.name])), agents: agents.names }),
    [teams.data, agents.names],
  );
  const titleOf = (r: BudgetRow) => budgetTitle(r, names);
  const openCreate = () => {
    setNotice('');
    setRepause('');
    setCreating(true);
  };
  const onResumed = (r: ResumedBudget) => {
    setResuming(null);
    const title = titleOf(r);
    setNotice(`Resumed ${title}.`);
    setRepause(
      r.willRepause
        ? `${title} has spent ${formatCents(r.spentUsdCents)} of its ${formatCents(r.limitUsdCents)} limit: the next model call will pause it again. Raise the limit, or resume with grace.`
        : '',
    );
  };

  const rows = budgets.data ?? [];
  return (
    <section className="flex flex-col gap-4 p-4 md:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="page-title mr-auto">
          Budgets
        </h1>
        <button type="button" className="btn btn-primary" onClick={openCreate}>
          New budget
        </button>
      </div>
      <p className="max-w-3xl text-sm text-muted">
        Every model call of a routed agent goes through svc, which reserves its estimated cost under each budget that applies before
        forwarding it. A cap budget refuses the call that would cross its limit and pauses; a warn budget only warns.
      </p>
      <p role="status" aria-live="polite" className="text-sm text-muted empty:hidden">
        {notice}
      </p>
      {repause && (
        <p role="alert" className="rounded-lg border border-warn p-3 text-sm text-warn">
          {repause}
        </p>
      )}
      {budgets.isPending ? (
        <Loading what="budgets" />
      ) : budgets.error ? (
        <ErrorState error={budgets.error} retry={() => void budgets.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title="No budgets yet">
          <p>Without a budget svc tracks spend and stops nothing. A budget can count everything, a team, an agent or a board task, and one model or all.</p>
          <button type="button" className="btn btn-primary mt-3" onClick={openCreate}>
            Create a budget
          </button>
        </Empty>
      ) : (
        <BudgetTable
          rows={rows}
          titleOf={titleOf}
          onEdit={(r) => {
            setNotice('');
            setRepause('');
            setEditing(r);
          }}
          onResume={(r) => {
            setNotice('');
            setRepause('');
            setResuming(r);
          }}
        />
      )}
      <BudgetDialog
        open={creating || editing !== null}
        budget={editing}
        onClose={() => {
          setCreating(false);
          setEditing(null);
        }}
        onSaved={(row, created) => {
          setCreating(false);
          setEditing(null);
          setNotice(`${created ? 'Created' : 'Saved'} ${titleOf(row)}.`);
        }}
      />
      <ResumeDialog budget={resuming} title={resuming ? titleOf(resuming) : ''} onClose={() => setResuming(null)} onResumed={onResumed} />
    </section>
  );
}
