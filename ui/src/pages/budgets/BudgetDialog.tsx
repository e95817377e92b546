// Create or edit a budget: POST /api/governance/budgets upserts by (scope,
// target, model), so editing keeps those three and changes the limit, mode
// and period. A 400's `details.fieldErrors` is shown under each field and the
// first refused field takes the focus.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAgents } from '../../api/agents.ts';
import { useSaveBudget } from '../../api/budgets.ts';
import { fieldErrorsOf } from '../../api/errors.ts';
import { useModelRouting } from '../../api/model-routing.ts';
import type { BudgetRow, BudgetScope, BudgetUpsert } from '../../api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { FormFooter } from '../../components/FormFooter.tsx';
import { useTeams } from '../../api/teams.ts';
import { centsToField, MODES, parseDollars, PERIODS, SCOPES } from '../../features/budgets/budget-format.ts';
import { FormField } from '../../components/FormField.tsx';

export function BudgetDialog({ open, budget, onClose, onSaved }: { open: boolean; budget: BudgetRow | null; onClose: () => void; onSaved: (row: BudgetRow, created: boolean) => void }) {
  return (
    <Dialog open={open} title={budget ? 'Edit budget' : 'New budget'} onClose={onClose}>
      {open && <BudgetForm key={budget?.id ?? 'new'} budget={budget} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

/** The field order, for moving the focus to the first refused one. */
const FIELD_ORDER = ['scope', 'scopeId', 'model', 'limitUsdCents', 'mode', 'period'] as const;

function BudgetForm({ budget, onClose, onSaved }: { budget: BudgetRow | null; onClose: () => void; onSaved: (row: BudgetRow, created: boolean) => void }) {
  const save = useSaveBudget();
  const teams = useTeams({ includeArchived: false });
  const agents = useAgents();
  // Gateway agents whose calls pass svc's endpoint count too, even when svc has no agent row for them.
  const routing = useModelRouting();
  const editing = budget !== null;
  const [scope, setScope] = useState<BudgetScope>(budget?.scope ?? 'global');
  const [scopeId, setScopeId] = useState(budget && budget.scope !== 'global' ? budget.scopeId : '');
  const [model, setModel] = useState(budget?.model ?? '');
  const [limit, setLimit] = useState(budget ? centsToField(budget.limitUsdCents) : '');
  const [mode, setMode] = useState<BudgetRow['mode']>(budget?.mode ?? 'cap');
  const [period, setPeriod] = useState<BudgetRow['period']>(budget?.period ?? 'none');
  const [localErrors, setLocalErrors] = useState<Record<string, string[]>>({});
  const form = useRef<HTMLFormElement>(null);

  const errors = { ...fieldErrorsOf(save.error), ...localErrors };
  const firstInvalid = FIELD_ORDER.find((f) => (errors[f]?.length ?? 0) > 0);
  // After a refusal, the first refused field takes the focus (its message is read with it).
  useEffect(() => {
    if (!firstInvalid) return;
    form.current?.querySelector<HTMLElement>(`[data-field="${firstInvalid}"]`)?.focus();
  }, [firstInvalid, save.error, localErrors]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cents = parseDollars(limit);
    if (!cents.ok) {
      save.reset();
      setLocalErrors({ limitUsdCents: [cents.message] });
      return;
    }
    setLocalErrors({});
    const body: BudgetUpsert = {
      scope,
      scopeId: scope === 'global' ? 'all' : scopeId.trim(),
      limitUsdCents: cents.cents,
      mode,
      period,
      model: model.trim() === '' ? null : model.trim(),
    };
    save.mutate(body, { onSuccess: (row) => onSaved(row, !editing) });
  };

  const teamList = teams.data?.teams ?? [];
  const agentList = [
    ...(agents.data ?? []).map((a) => ({ id: a.id, text: a.name === a.id ? a.id : `${a.name} (${a.id})` })),
    ...(routing.data?.agents ?? [])
      .filter((r) => r.routed && !(agents.data ?? []).some((a) => a.id === r.agentId))
      .map((r) => ({ id: r.agentId, text: `${r.agentId} (gateway)` })),
  ];
  return (
    <form ref={form} className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <FormField label="Counts spend of" errors={errors.scope}>
        {(p) => (
          <select
            {...p}
            data-field="scope"
            className="input"
            value={scope}
            disabled={editing}
            onChange={(e) => {
              setScope(e.target.value as BudgetScope);
              setScopeId('');
              // A refusal of the previous target no longer applies.
              save.reset();
            }}
          >
            {SCOPES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.text}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {scope === 'team' && (
        <FormField label="Team" errors={errors.scopeId}>
          {(p) => (
            <select {...p} data-field="scopeId" className="input" value={scopeId} disabled={editing} onChange={(e) => setScopeId(e.target.value)}>
              <option value="">{teams.isPending ? 'Loading teams…' : 'Choose a team'}</option>
              {editing && !teamList.some((t) => t.id === scopeId) && <option value={scopeId}>{scopeId}</option>}
              {teamList.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
      )}
      {scope === 'agent' && (
        <FormField label="Agent" errors={errors.scopeId}>
          {(p) => (
            <select {...p} data-field="scopeId" className="input" value={scopeId} disabled={editing} onChange={(e) => setScopeId(e.target.value)}>
              <option value="">{agents.isPending ? 'Loading agents…' : 'Choose an agent'}</option>
              {editing && !agentList.some((a) => a.id === scopeId) && <option value={scopeId}>{scopeId}</option>}
              {agentList.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.text}
                </option>
              ))}
            </select>
          )}
        </FormField>
      )}
      {scope === 'task' && (
        <FormField label="Task id" hint="The board task's id, as the task drawer shows it." errors={errors.scopeId}>
          {(p) => <input {...p} data-field="scopeId" className="input" value={scopeId} readOnly={editing} autoComplete="off" onChange={(e) => setScopeId(e.target.value)} />}
        </FormField>
      )}
      <FormField label="Model (optional)" hint="Count only this model's calls, e.g. openai/gpt-4o. Empty: every model." errors={errors.model}>
        {(p) => <input {...p} data-field="model" className="input" value={model} readOnly={editing} autoComplete="off" onChange={(e) => setModel(e.target.value)} />}
      </FormField>
      <FormField label="Limit (US dollars)" errors={errors.limitUsdCents}>
        {(p) => <input {...p} data-field="limitUsdCents" className="input" inputMode="decimal" autoComplete="off" value={limit} onChange={(e) => setLimit(e.target.value)} />}
      </FormField>
      <fieldset className="flex flex-col gap-1 text-sm" aria-describedby={errors.mode?.length ? 'budget-mode-err' : undefined}>
        <legend className="mb-1">Mode</legend>
        {MODES.map((m, i) => (
          <label key={m.value} className="flex items-start gap-2">
            <input
              type="radio"
              name="budget-mode"
              className="mt-0.5"
              value={m.value}
              checked={mode === m.value}
              onChange={() => setMode(m.value)}
              {...(i === 0 ? { 'data-field': 'mode' } : {})}
            />
            <span>
              {m.text}
              <span className="block text-muted">{m.hint}</span>
            </span>
          </label>
        ))}
        {(errors.mode?.length ?? 0) > 0 && (
          <span id="budget-mode-err" className="text-danger">
            {errors.mode?.join(' ')}
          </span>
        )}
      </fieldset>
      <FormField label="Period" errors={errors.period}>
        {(p) => (
          <select {...p} data-field="period" className="input" value={period} onChange={(e) => setPeriod(e.target.value as BudgetRow['period'])}>
            {PERIODS.map((x) => (
              <option key={x.value} value={x.value}>
                {x.text}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormFooter error={save.error} onCancel={onClose} submitLabel={editing ? 'Save budget' : 'Create budget'} pending={save.isPending} />
    </form>
  );
}
