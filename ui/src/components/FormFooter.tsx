// The end of a dialog's form: the server's refusal (shown as it is, read out
// by screen readers), then Cancel and the submit button, disabled while the
// request is in flight.
export interface FormFooterProps {
  error: Error | null;
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
}

export function FormFooter({ error, onCancel, submitLabel, pending }: FormFooterProps) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {submitLabel}
        </button>
      </div>
    </>
  );
}
