// A modal question before something that cannot be undone: the browser's own <dialog>, so focus stays
// inside while it is open, Escape cancels, and focus returns to the control that opened it. A removal that runs
// a mutation once confirmed: useConfirmedRemoval (confirmed-removal.ts), kept apart so a screen that only asks
// does not bring TanStack Query's mutations into its chunk.
import { useEffect, useId, useRef } from 'react';
import { m } from '../lib/i18n';
import { Button } from './button';

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

export function ConfirmDialog({ open, title, text, confirmLabel, pending, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
    if (!open && element?.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className="m-auto w-full max-w-md rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/40"
    >
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p id={textId} className="mt-2 text-sm text-slate-600">
        {text}
      </p>
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          {m.confirm_cancel()}
        </Button>
        <Button variant="danger" pending={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
