// The "New card" form: type, sides, tags and preview; Ctrl+Enter (⌘+Enter on a Mac) adds the card from
// any field. The card shows at the top of the list at once, then every card list and metric is fetched again.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { type Card, cardsOptions, DEFAULT_FILTER, refreshCards } from '../../entities/cards/queries';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { draftInput, draftInvalid, emptyDraft, validateDraft } from './card-draft';
import { CardFields } from './card-fields';

/** Shows the new card before the refetch lands, so the user sees it at the top straight away. */
function prependToList(card: Card) {
  queryClient.setQueryData(cardsOptions(DEFAULT_FILTER).queryKey, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first) return data;
    return { ...data, pages: [{ ...first, items: [card, ...first.items] }, ...rest] };
  });
}

const onMac = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** Ctrl+Enter or ⌘+Enter submits, whichever field has focus (before a field, like the tag picker, takes Enter). */
function submitOnModEnter(event: KeyboardEvent<HTMLFormElement>) {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
  event.preventDefault();
  event.stopPropagation();
  event.currentTarget.requestSubmit();
}

export function NewCardForm() {
  const [draft, setDraft] = useState(emptyDraft);
  const [submitted, setSubmitted] = useState(false);
  const frontRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const errors = submitted ? validateDraft(draft) : {};

  const createCard = useMutation(
    trpc.cards.create.mutationOptions({
      onSuccess: async (card) => {
        prependToList(card);
        // The type and tags stay: cards are often written in runs of the same kind.
        setDraft((current) => ({ ...current, front: '', back: '' }));
        setSubmitted(false);
        frontRef.current?.focus();
        toast.success(m.new_card_added());
        await refreshCards();
      },
      onError: toastError,
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (draftInvalid(validateDraft(draft))) return;
    createCard.mutate(draftInput(draft));
  }

  return (
    <section aria-labelledby="new-card-heading" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="new-card-heading" className="text-lg font-semibold text-slate-900">
        {m.new_card_heading()}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{m.new_card_description()}</p>
      <form onSubmit={submit} onKeyDownCapture={submitOnModEnter} noValidate className="mt-5 space-y-4">
        <CardFields draft={draft} errors={errors} onChange={setDraft} frontRef={frontRef} />
        <Button
          type="submit"
          pending={createCard.isPending}
          className="w-full"
          aria-keyshortcuts={onMac() ? 'Meta+Enter' : 'Control+Enter'}
        >
          {m.new_card_submit()}
        </Button>
        <p className="hidden text-center text-xs text-slate-500 pointer-fine:block">
          {m.new_card_shortcut({ keys: onMac() ? '⌘+Enter' : 'Ctrl+Enter' })}
        </p>
      </form>
    </section>
  );
}
