// A labelled form control: the <label> names the control by id (not by
// wrapping it, which would put a select's chosen option into its name), with
// an optional hint under it tied by aria-describedby.
import { useId, type ReactNode } from 'react';

export function Field({ label, hint, children }: { label: string; hint?: string; children: (ids: { id: string; describedBy?: string }) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(hint ? { describedBy: hintId } : {}) })}
      {hint && (
        <span id={hintId} className="text-xs text-muted">
          {hint}
        </span>
      )}
    </div>
  );
}
