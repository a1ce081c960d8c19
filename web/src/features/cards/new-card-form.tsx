// The "New card" form: type, sides, tags and preview; Ctrl+Enter (⌘+Enter on a Mac) adds the card from
// any field. The card shows at the top of the list at once, then every card list and metric is fetched again.
import { type KeyboardEvent, useRef } from 'react';
import { Button } from '../../components/button';
import { type Card, cardsOptions, DEFAULT_FILTER, refreshCards } from '../../entities/cards/queries';
import { useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';
import { cardProblems } from '../../lib/validation';
import { draftInput, emptyDraft } from './card-draft';
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
  const frontRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const form = useContractForm({
    initial: emptyDraft,
    check: cardProblems,
    input: draftInput,
    mutation: trpc.cards.create.mutationOptions(),
    // The type and tags stay: cards are often written in runs of the same kind.
    reset: (draft) => ({ ...draft, front: '', back: '' }),
    onSaved: (card) => {
      prependToList(card);
      frontRef.current?.focus();
    },
    saved: () => m.new_card_added(),
    invalidate: refreshCards,
  });

  return (
    <section aria-labelledby="new-card-heading" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="new-card-heading" className="text-lg font-semibold text-slate-900">
        {m.new_card_heading()}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{m.new_card_description()}</p>
      <form onSubmit={form.submit} onKeyDownCapture={submitOnModEnter} noValidate className="mt-5 space-y-4">
        <CardFields draft={form.draft} errors={form.errors} onChange={form.setDraft} frontRef={frontRef} />
        <Button
          type="submit"
          pending={form.pending}
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
