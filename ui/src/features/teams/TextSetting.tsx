// A saved text setting (team rules, lead brief, the user's intro): a labelled
// field with an optional character cap and counter, Save, and the server's
// answer. The draft starts from the server's value and is kept while typing;
// text over the cap is refused in the field (Save stays off and says why),
// never cut silently. The save is the caller's mutation hook: its pending
// state, success and error are what Save and the line under it say.
import type { UseMutationResult } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { countLabel, overCap } from './text-limit.ts';

/** The parts of a mutation hook's result the field uses. */
export type TextSave<V> = Pick<UseMutationResult<unknown, Error, V>, 'mutate' | 'isPending' | 'isSuccess' | 'error' | 'reset'>;

export interface TextSettingProps<V> {
  label: string;
  /** What the setting is called in messages ("Rules"). */
  what: string;
  saved: string;
  cap?: number;
  rows?: number;
  hint?: ReactNode;
  saveLabel: string;
  save: TextSave<V>;
  /** The mutation's variables for a text. */
  variables: (text: string) => V;
  /** Extra buttons after Save (a Clear). */
  extra?: ReactNode;
}

export function TextSetting<V>({ label, what, saved, cap, rows = 6, hint, saveLabel, save, variables, extra }: TextSettingProps<V>) {
  const id = useId();
  const [draft, setDraft] = useState(saved);
  const refusal = cap === undefined ? null : overCap(what, draft.length, cap);
  const dirty = draft !== saved;
  const result = save.isSuccess ? { ok: true, text: `${what} saved.` } : save.error ? { ok: false, text: save.error.message } : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (refusal) return;
    save.mutate(variables(draft));
  };

  return (
    <form className="flex flex-col gap-2" onSubmit={submit}>
      <label htmlFor={`${id}-text`} className="text-sm font-medium">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      )}
      <textarea
        id={`${id}-text`}
        className="input font-mono"
        rows={rows}
        value={draft}
        aria-invalid={refusal ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : '', cap !== undefined ? `${id}-count` : ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          save.reset();
        }}
      />
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className="btn btn-primary" disabled={save.isPending || !!refusal || !dirty}>
          {saveLabel}
        </button>
        {extra}
        {cap !== undefined && (
          <span id={`${id}-count`} className={`ml-auto text-xs ${refusal ? 'text-danger' : 'text-muted'}`}>
            {countLabel(draft.length, cap)}
          </span>
        )}
      </div>
      {refusal && (
        <p role="alert" className="text-sm text-danger">
          {refusal}
        </p>
      )}
      {result && (
        <p role={result.ok ? 'status' : 'alert'} className={`text-sm ${result.ok ? 'text-ok' : 'text-danger'}`}>
          {result.text}
        </p>
      )}
    </form>
  );
}
