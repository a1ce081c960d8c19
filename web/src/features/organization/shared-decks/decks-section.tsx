// The organization's shared decks, newest first, a page at a time with "Load more": each with its team (or
// the whole organization), card and subscriber counts, and Subscribe or Unsubscribe; the publisher
// publishes the tag's changes; those who may change decks withdraw one (after a confirmation) and share a
// new one.
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useConfirmedRemoval } from '../../../components/confirmed-removal';
import { PagedList } from '../../../components/paged-list';
import { type DeckJson, refreshSharedDecks, useSubscription } from '../../../entities/shared-decks/shared-decks';
import { toastError } from '../../../lib/errors';
import { m } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import type { SharedDecksContext } from './context';
import { decksOptions } from './queries';
import { ShareDeckForm } from './share-deck-form';

export const teamLabel = (context: SharedDecksContext, teamId: string | null) =>
  teamId ? (context.teams.get(teamId) ?? m.shared_decks_team_unknown()) : m.shared_decks_whole_organization();

function DeckItem({
  deck,
  context,
  onWithdraw,
}: {
  deck: DeckJson;
  context: SharedDecksContext;
  onWithdraw: () => void;
}) {
  const { subscribe, unsubscribe } = useSubscription();
  const sync = useMutation(
    trpc.orgs.syncDeck.mutationOptions({
      onSuccess: async () => {
        toast.success(m.shared_decks_deck_synced());
        await refreshSharedDecks();
      },
      onError: toastError,
    }),
  );
  const headingId = `deck-${deck.id}`;
  const busy = subscribe.isPending || unsubscribe.isPending;
  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h3 id={headingId} className="font-semibold text-slate-900">
              {deck.name}
            </h3>
            {deck.description && <p className="mt-1 text-sm text-slate-600">{deck.description}</p>}
            <p className="mt-2 text-xs text-slate-600">
              {teamLabel(context, deck.teamId)} ·{' '}
              {m.shared_decks_deck_counts({ cards: deck.cardCount, subscribers: deck.subscriberCount })}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {deck.subscribed ? (
              <Button variant="secondary" pending={busy} onClick={() => unsubscribe.mutate({ deckId: deck.id })}>
                {m.shared_decks_unsubscribe()}
              </Button>
            ) : (
              <Button pending={busy} onClick={() => subscribe.mutate({ deckId: deck.id })}>
                {m.shared_decks_subscribe()}
              </Button>
            )}
            {context.managesDecks && deck.publisherId === context.userId && (
              <Button variant="secondary" pending={sync.isPending} onClick={() => sync.mutate({ deckId: deck.id })}>
                {m.shared_decks_deck_sync()}
              </Button>
            )}
            {context.managesDecks && (
              <Button variant="ghost" onClick={onWithdraw}>
                {m.shared_decks_deck_withdraw()}
              </Button>
            )}
          </div>
        </div>
      </article>
    </li>
  );
}

export function DecksSection({ context }: { context: SharedDecksContext }) {
  const decks = useInfiniteQuery(decksOptions(context.organizationId));
  const withdrawal = useConfirmedRemoval(trpc.orgs.deleteDeck.mutationOptions(), {
    input: (deck: DeckJson) => ({ deckId: deck.id }),
    success: m.shared_decks_deck_withdrawn,
    refresh: refreshSharedDecks,
  });

  return (
    <section aria-labelledby="decks-heading">
      <h2 id="decks-heading" className="mb-4 text-lg font-semibold text-slate-900">
        {m.shared_decks_decks_heading()}
      </h2>
      <PagedList
        list={decks}
        loadingLabel={m.shared_decks_loading()}
        failedMessage={m.shared_decks_decks_failed()}
        empty={context.managesDecks ? m.shared_decks_decks_empty_manager() : m.shared_decks_decks_empty()}
      >
        {(items) => (
          <ul aria-labelledby="decks-heading" className="space-y-3">
            {items.map((deck) => (
              <DeckItem key={deck.id} deck={deck} context={context} onWithdraw={() => withdrawal.ask(deck)} />
            ))}
          </ul>
        )}
      </PagedList>
      {context.managesDecks && <ShareDeckForm context={context} />}
      <ConfirmDialog
        {...withdrawal.dialog}
        title={m.shared_decks_withdraw_title({ name: withdrawal.waiting?.name ?? '' })}
        text={m.shared_decks_withdraw_text()}
        confirmLabel={m.shared_decks_deck_withdraw()}
      />
    </section>
  );
}
