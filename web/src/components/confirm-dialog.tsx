// A modal question before something that cannot be undone: the browser's own <dialog>, so focus stays
// inside while it is open, Escape cancels, and focus returns to the control that opened it.
import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { toastError } from '../lib/errors';
import { m } from '../lib/i18n';
import { toast } from '../lib/toast';
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

/**
 * A removal asked for first: which item waits for the learner's answer, and the dialog's state and actions.
 * On a yes the mutation runs; once it succeeds the dialog closes, `success` is toasted and `refresh` fetches
 * what it changed again; a refusal is toasted by the error resolver and the dialog stays open.
 */
export function useConfirmedRemoval<T, Input, Data, Error>(
  options: UseMutationOptions<Data, Error, Input>,
  { input, success, refresh }: { input: (item: T) => Input; success: () => string; refresh: () => Promise<unknown> },
) {
  const [waiting, setWaiting] = useState<T | null>(null);
  const mutation = useMutation({
    ...options,
    onSuccess: async () => {
      setWaiting(null);
      toast.success(success());
      await refresh();
    },
    onError: toastError,
  });
  return {
    /** The item the dialog asks about, or null while it is closed. */
    waiting,
    ask: (item: T) => setWaiting(item),
    dialog: {
      open: waiting !== null,
      pending: mutation.isPending,
      onConfirm: () => {
        if (waiting !== null) mutation.mutate(input(waiting));
      },
      onCancel: () => setWaiting(null),
    },
  };
}
