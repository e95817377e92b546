// A saved text setting (team rules, lead brief, the user's intro): a labelled
// field with an optional character cap and counter, Save, and the server's
// answer. The draft starts from the server's value and is kept while typing;
// text over the cap is refused in the field (Save stays off and says why),
// never cut silently.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { countLabel, overCap } from './text-limit.ts';

export interface TextSettingProps {
  label: string;
  /** What the setting is called in messages ("Rules"). */
  what: string;
  saved: string;
  cap?: number;
  rows?: number;
  hint?: ReactNode;
  saveLabel: string;
  onSave: (text: string) => Promise<unknown>;
  /** Extra buttons after Save (a Clear). */
  extra?: ReactNode;
}

export function TextSetting({ label, what, saved, cap, rows = 6, hint, saveLabel, onSave, extra }: TextSettingProps) {
  const id = useId();
  const [draft, setDraft] = useState(saved);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const refusal = cap === undefined ? null : overCap(what, draft.length, cap);
  const dirty = draft !== saved;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (refusal) return;
    setPending(true);
    setResult(null);
    onSave(draft).then(
      () => setResult({ ok: true, text: `${what} saved.` }),
      (err: unknown) => setResult({ ok: false, text: err instanceof Error ? err.message : String(err) }),
    ).finally(() => setPending(false));
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
          setResult(null);
        }}
      />
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className="btn btn-primary" disabled={pending || !!refusal || !dirty}>
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
