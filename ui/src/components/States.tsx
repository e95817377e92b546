// The four states every page has besides success: loading, error, empty.
import type { ReactNode } from 'react';

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" aria-live="polite" className="p-6 text-muted">
      Loading {what}…
    </p>
  );
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div role="alert" className="m-4 rounded-lg border border-danger p-4">
      <p className="text-danger">{message}</p>
      {retry && (
        <button type="button" className="btn mt-3" onClick={retry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="m-4 rounded-lg border border-dashed border-border p-6 text-center">
      <p className="font-medium">{title}</p>
      {children && <div className="mt-2 text-sm text-muted">{children}</div>}
    </div>
  );
}
