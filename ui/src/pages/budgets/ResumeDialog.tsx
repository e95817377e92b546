// Resume a paused budget: POST .../:scope/:scopeId/resume with an optional
// grace (extra dollars on top of the limit until the limit is set again or
// the period resets). The answer's willRepause goes back to the page, which
// warns that the next call will pause the budget again.
import { useState, type FormEvent } from 'react';
import { useResumeBudget } from '../../api/budgets.ts';
import { fieldErrorsOf } from '../../api/errors.ts';
import type { BudgetRow, ResumedBudget } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { FormFooter } from '../../components/FormFooter.tsx';
import { formatCents, parseDollars } from '../../features/budgets/budget-format.ts';
import { FormField } from '../../components/FormField.tsx';

export function ResumeDialog({ budget, title, onClose, onResumed }: { budget: BudgetRow | null; title: string; onClose: () => void; onResumed: (row: ResumedBudget) => void }) {
  return (
    <Dialog open={budget !== null} title={`Resume ${title}`} onClose={onClose}>
      {budget && <ResumeForm key={budget.id} budget={budget} onClose={onClose} onResumed={onResumed} />}
    </Dialog>
  );
}

function ResumeForm({ budget, onClose, onResumed }: { budget: BudgetRow; onClose: () => void; onResumed: (row: ResumedBudget) => void }) {
  const resume = useResumeBudget();
  const [grace, setGrace] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const errors = localError ? [localError] : fieldErrorsOf(resume.error).graceUsdCents;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    let graceUsdCents: number | undefined;
    if (grace.trim() !== '') {
      const parsed = parseDollars(grace);
      if (!parsed.ok || parsed.cents === 0) {
        resume.reset();
        setLocalError(parsed.ok ? 'Enter an amount above $0, or leave it empty.' : parsed.message);
        return;
      }
      graceUsdCents = parsed.cents;
    }
    setLocalError(null);
    resume.mutate({ scope: budget.scope, scopeId: budget.scopeId, model: budget.model, ...(graceUsdCents !== undefined ? { graceUsdCents } : {}) }, { onSuccess: onResumed });
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <p className="text-sm">
        Spent {formatCents(budget.spentUsdCents)} of {formatCents(budget.limitUsdCents)}
        {budget.graceUsdCents > 0 ? ` (plus ${formatCents(budget.graceUsdCents)} grace)` : ''}. Resuming lets this budget&apos;s agents make model calls again.
      </p>
      <FormField
        label="Grace (US dollars, optional)"
        hint="Extra spend allowed on top of the limit, until the limit is changed or the period resets. Without it, a budget at its limit pauses again on the next call."
        errors={errors}
      >
        {(p) => <input {...p} className="input" inputMode="decimal" autoComplete="off" value={grace} onChange={(e) => setGrace(e.target.value)} />}
      </FormField>
      <FormFooter error={resume.error} onCancel={onClose} submitLabel="Resume budget" pending={resume.isPending} />
    </form>
  );
}
