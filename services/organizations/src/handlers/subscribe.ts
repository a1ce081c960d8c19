// Subscribe: a member starts studying a deck. The cards service makes their own copies from the event
// committed here; subscribing twice changes nothing.
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import type { Deck as DeckMessage, SubscribeRequest } from '@engram/proto/organizations/v1/organizations';
import type { OrganizationsDeps } from '../deps.js';
import { subscribed } from '../domain/deck-events.js';
import { deckMessage, visibleDeck } from '../domain/decks.js';

export function subscribe(deps: OrganizationsDeps) {
  return async (request: SubscribeRequest, ctx: CallContext): Promise<DeckMessage> => {
    const { deck } = await visibleDeck(deps, ctx, request.deckId);
    const userId = ctx.caller.userId;
    await prismaTransaction(deps.db, async (tx) => {
      const created = await tx.subscription.createMany({ data: [{ deckId: deck.id, userId }], skipDuplicates: true });
      if (created.count > 0) await subscribed(tx, deck, userId);
    });
    return deckMessage(deps.db, deck, userId);
  };
}
