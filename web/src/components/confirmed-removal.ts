// A removal asked for first (the question is ConfirmDialog, confirm-dialog.tsx), run as a mutation once confirmed.
import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toastError } from '../lib/errors';
import { toast } from '../lib/toast';

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
