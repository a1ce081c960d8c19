// SyncDeck: the publisher brings a deck in step with their tag's cards: changed and new cards are
// published again, gone ones withdrawn, each with its event (DeckCardPublished, DeckCardWithdrawn) in
// one transaction.
import { SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { FailedPrecondition, PermissionDenied } from '@engram/kit/errors';
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import type { Deck as DeckMessage, SyncDeckRequest } from '@engram/proto/organizations/v1/organizations';
import type { OrganizationsDeps } from '../deps.js';
import { cardPublished, cardWithdrawn } from '../domain/deck-events.js';
import { deckMessage, LONG_TRANSACTION, visibleDeck } from '../domain/decks.js';
import { tagCards } from '../tag-cards.js';

export function syncDeck(deps: OrganizationsDeps) {
  return async (request: SyncDeckRequest, ctx: CallContext): Promise<DeckMessage> => {
    // visibleDeck asked identity for deck:update already.
    const { deck, managesDecks } = await visibleDeck(deps, ctx, request.deckId);
    if (!managesDecks) {
      throw new PermissionDenied(
        'You are not allowed to change decks in this organization.',
        SHARED_DECK_REASONS.permissionDenied,
      );
    }
    if (deck.publisherId !== ctx.caller.userId) {
      throw new PermissionDenied(
        'Only the member who published the deck can publish its changes.',
        'NOT_DECK_PUBLISHER',
      );
    }
    const cards = await tagCards(deps.cards, ctx, deck.sourceTagId);
    if (cards.length === 0) {
      // The tag was emptied or deleted: publishing that would withdraw every card from every subscriber.
      throw new FailedPrecondition(
        'The deck’s tag has no cards any more; withdraw the deck instead.',
        SHARED_DECK_REASONS.deckEmpty,
      );
    }
    const changed = await prismaTransaction(
      deps.db,
      async (tx) => {
        const current = new Map(
          (await tx.deckCard.findMany({ where: { deckId: deck.id } })).map((card) => [card.originCardId, card]),
        );
        let changes = 0;
        for (const card of cards) {
          const before = current.get(card.originCardId);
          current.delete(card.originCardId);
          if (
            before &&
            !before.withdrawn &&
            before.type === card.type &&
            before.front === card.front &&
            before.back === card.back
          ) {
            continue;
          }
          const revision = (before?.revision ?? 0n) + 1n;
          await tx.deckCard.upsert({
            where: { deckId_originCardId: { deckId: deck.id, originCardId: card.originCardId } },
            create: { deckId: deck.id, ...card, revision },
            update: { type: card.type, front: card.front, back: card.back, revision, withdrawn: false },
          });
          await cardPublished(tx, deck.id, { ...card, revision }, ctx.caller.userId);
          changes++;
        }
        for (const gone of current.values()) {
          if (gone.withdrawn) continue;
          const revision = gone.revision + 1n;
          await tx.deckCard.update({
            where: { deckId_originCardId: { deckId: deck.id, originCardId: gone.originCardId } },
            data: { withdrawn: true, revision },
          });
          await cardWithdrawn(tx, deck.id, gone.originCardId, revision, ctx.caller.userId);
          changes++;
        }
        return changes > 0 ? tx.deck.update({ where: { id: deck.id }, data: { updatedAt: new Date() } }) : deck;
      },
      LONG_TRANSACTION,
    );
    return deckMessage(deps.db, changed, ctx.caller.userId);
  };
}
