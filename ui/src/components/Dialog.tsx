// A modal on the native <dialog>: focus is trapped and restored by the
// browser, Escape closes it, and the page behind is inert.
import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * Opens and closes a native <dialog> as a modal with `open` (the Dialog here
 * and the board's Drawer); the returned props go on the <dialog>.
 *
 * Escape closes the native dialog at once, but its `close` event comes a task
 * later: the state is told on `cancel`, so a re-open in between (Escape, then
 * Enter on the button that opened it) is not lost; and a `close` event that
 * arrives after the dialog was opened again is stale and ignored.
 */
export function useModalDialog(open: boolean, onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return {
    ref,
    onCancel: () => onClose(),
    onClose: () => {
      if (!ref.current?.open) onClose();
    },
  };
}

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** The dialog's buttons, under its body. */
  actions?: ReactNode;
}

export function Dialog({ open, title, onClose, children, actions }: DialogProps) {
  const modal = useModalDialog(open, onClose);
  const titleId = useId();
  return (
    <dialog
      {...modal}
      aria-labelledby={titleId}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-border bg-surface p-0 text-text"
    >
      {open && (
        <div className="flex flex-col gap-4 p-5">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <div>{children}</div>
          {actions && <div className="flex justify-end gap-2">{actions}</div>}
        </div>
      )}
    </dialog>
  );
}
