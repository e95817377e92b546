// A labelled control with an optional hint and the server's messages for it:
// the control gets aria-invalid and aria-describedby naming both, so a screen
// reader reads why the field was refused when it is focused.
import { useId, type ReactNode } from 'react';

export interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

export function FormField({ label, hint, errors, children }: { label: string; hint?: string; errors?: readonly string[]; children: (p: ControlProps) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errId = `${id}-err`;
  const invalid = (errors?.length ?? 0) > 0;
  const describedBy = [invalid ? errId : '', hint ? hintId : ''].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': invalid, ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {invalid && (
        <span id={errId} className="text-danger">
          {errors?.join(' ')}
        </span>
      )}
      {hint && (
        <span id={hintId} className="text-xs text-muted">
          {hint}
        </span>
      )}
    </div>
  );
}
