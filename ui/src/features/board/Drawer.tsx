// A side panel on the native <dialog> (modal: focus is trapped and restored
// by the browser, Escape closes it). Full width below the md breakpoint.
import { useId, type ReactNode } from 'react';
import { useModalDialog } from '../../components/Dialog.tsx';

export function Drawer({ open, title, onClose, children }: { open: boolean; title: ReactNode; onClose: () => void; children: ReactNode }) {
  const modal = useModalDialog(open, onClose);
  const id = useId();
  return (
    <dialog
      {...modal}
      aria-labelledby={`${id}-title`}
      className="m-0 ml-auto h-full max-h-none w-full max-w-none border-l border-border bg-surface p-0 text-text md:w-[36rem]"
    >
      {open && (
        <div className="flex min-h-full flex-col gap-4 p-5">
          <div className="flex items-start gap-3">
            <h2 id={`${id}-title`} className="mr-auto text-lg font-semibold break-words">
              {title}
            </h2>
            <button type="button" className="btn" onClick={onClose}>
              Close
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
