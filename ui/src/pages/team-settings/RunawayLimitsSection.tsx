// Runaway turns (issue 31 item 7; docs/runaway.md): the team's two limits on
// its agents' turns, each shown as the default or as set for this team, and
// changed or reset through PUT /api/teams/:id/runaway-limits. The server
// judges the bounds: its 400 message is shown next to the refused field.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fieldErrorsOf } from '../../api/errors.ts';
import { RUNAWAY_LIMIT_BOUNDS, useRunawayLimits, useSetRunawayLimits, type RunawayLimitsPatch, type RunawayLimitsView } from '../../api/runaway-limits.ts';
import { FormField } from '../../components/FormField.tsx';
import { Section } from './Section.tsx';

type LimitName = keyof RunawayLimitsView['limits'];

const FIELDS: ReadonlyArray<{ name: LimitName; label: string }> = [
  { name: 'maxCallsPerTurn', label: 'Model calls per turn' },
  { name: 'maxIdenticalRepeats', label: 'Identical tool calls in a row' },
];

const n = (x: number) => x.toLocaleString('en-US');

type Done = 'saved' | 'reset' | null;
type Save = ReturnType<typeof useSetRunawayLimits>;

export function RunawayLimitsSection({ teamId }: { teamId: string }) {
  const query = useRunawayLimits(teamId);
  // Here, not in the form: the form starts again after a save and the outcome stays said.
  const save = useSetRunawayLimits(teamId);
  const [done, setDone] = useState<Done>(null);
  return (
    <Section title="Runaway turns" id="runaway-title" state={query}>
      <p className="text-sm text-muted">
        When a turn of one of this team&apos;s agents reaches a limit, svc does not forward its next model call but answers it
        with a message saying which limit was reached, which ends the turn. The limits apply to calls through svc&apos;s model
        endpoint; an agent on several teams is held to the strictest.
      </p>
      {/* A saved or reset view starts the form again from what the server holds. */}
      {query.data && <RunawayLimitsForm key={JSON.stringify(query.data.custom)} view={query.data} save={save} done={done} setDone={setDone} />}
    </Section>
  );
}

function RunawayLimitsForm({ view, save, done, setDone }: { view: RunawayLimitsView; save: Save; done: Done; setDone: (d: Done) => void }) {
  const [values, setValues] = useState<Record<LimitName, string>>({
    maxCallsPerTurn: String(view.limits.maxCallsPerTurn),
    maxIdenticalRepeats: String(view.limits.maxIdenticalRepeats),
  });
  const [localErrors, setLocalErrors] = useState<Partial<Record<LimitName, string[]>>>({});
  const form = useRef<HTMLFormElement>(null);
  const errors: Partial<Record<LimitName, string[]>> = { ...fieldErrorsOf(save.error), ...localErrors };
  const firstInvalid = FIELDS.find((f) => (errors[f.name]?.length ?? 0) > 0)?.name;
  // After a refusal the refused field takes the focus, so its message is read with it.
  useEffect(() => {
    if (firstInvalid) form.current?.querySelector<HTMLElement>(`[data-field="${firstInvalid}"]`)?.focus();
  }, [firstInvalid, save.error, localErrors]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A PUT replaces what the team set: keep each limit it set, and add each one changed here.
    const body: RunawayLimitsPatch = {};
    const empty: Partial<Record<LimitName, string[]>> = {};
    for (const { name } of FIELDS) {
      const text = values[name].trim();
      if (text === '') {
        empty[name] = ['Enter a whole number.'];
        continue;
      }
      const value = Number(text);
      if (name in view.custom || value !== view.limits[name]) body[name] = value;
    }
    setDone(null);
    if (Object.keys(empty).length > 0) {
      save.reset();
      setLocalErrors(empty);
      return;
    }
    setLocalErrors({});
    save.mutate(body, { onSuccess: () => setDone('saved') });
  };
  const resetToDefaults = () => {
    setDone(null);
    setLocalErrors({});
    save.mutate({}, { onSuccess: () => setDone('reset') });
  };

  return (
    <form ref={form} className="flex flex-col gap-3" onSubmit={submit} noValidate>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map(({ name, label }) => {
          const bounds = RUNAWAY_LIMIT_BOUNDS[name];
          const own = name in view.custom;
          const now = own
            ? `Now ${n(view.limits[name])}, set for this team (the default is ${n(view.defaults[name])}).`
            : `Now ${n(view.limits[name])}, the default.`;
          return (
            <FormField key={name} label={label} hint={`${now} A whole number from ${n(bounds.min)} to ${n(bounds.max)}.`} errors={errors[name]}>
              {(p) => (
                <input
                  {...p}
                  data-field={name}
                  type="number"
                  className="input"
                  min={bounds.min}
                  max={bounds.max}
                  step={1}
                  value={values[name]}
                  onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
                />
              )}
            </FormField>
          );
        })}
      </div>
      {save.error && (
        <p role="alert" className="text-sm text-danger">
          {save.error.message}
        </p>
      )}
      <p role="status" className="text-sm text-muted empty:hidden">
        {save.isPending ? 'Saving…' : done === 'saved' ? 'Runaway limits saved.' : done === 'reset' ? 'Runaway limits are back to the defaults.' : ''}
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn" disabled={save.isPending || Object.keys(view.custom).length === 0} onClick={resetToDefaults}>
          Reset to defaults
        </button>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Save limits
        </button>
      </div>
    </form>
  );
}
