/**
 * A question that must be answered before something that cannot be undone (voiding an invoice, declining a quote): a
 * modal <dialog>, so the page behind is inert, Tab stays inside, Escape cancels, and focus returns to the button that
 * opened it. `children` may hold fields (a credit note's amount and reason); `onConfirm` answers false to keep the
 * dialog open (a field to mend). Render it outside any form: the browser does not submit a form inside a form.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ActionButton } from '@/features/forms/fields';

interface Props {
  open: boolean;
  title: string;
  /** The confirming button's label, e.g. "Void invoice". */
  confirm: string;
  /** Red for what takes something away. */
  danger?: boolean;
  onConfirm: () => Promise<boolean | undefined> | boolean | undefined;
  onClose: () => void;
  children?: ReactNode;
}

export function ConfirmDialog({ open, title, confirm, danger = false, onConfirm, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  // The element that had focus when the dialog opened, to give it back.
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  const restoreFocus = () => {
    const back = opener.current;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  };

  async function answer() {
    if (busy) return;
    setBusy(true);
    try {
      const result = await onConfirm();
      if (result !== false) onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      onClose={() => {
        restoreFocus();
        if (open) onClose();
      }}
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          // React passes the submit on to the components around the dialog, and one of them may be a form.
          event.stopPropagation();
          void answer();
        }}
      >
        <h2 id={titleId} className="text-xl font-bold">
          {title}
        </h2>
        <div className="mt-3 space-y-3">{children}</div>
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <ActionButton type="submit" className={danger ? 'btn bg-red-700 text-white hover:bg-red-800' : 'btn-primary'} busy={busy}>
            {busy ? 'Working...' : confirm}
          </ActionButton>
        </div>
      </form>
    </dialog>
  );
}
