// Unsubscribe: a member stops studying a deck. The cards service archives their copies from the event
// committed here; unsubscribing twice changes nothing.
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import type { Deck as DeckMessage, UnsubscribeRequest } from '@engram/proto/organizations/v1/organizations';
import type { OrganizationsDeps } from '../deps.js';
import { unsubscribed } from '../domain/deck-events.js';
import { deckMessage, visibleDeck } from '../domain/decks.js';

export function unsubscribe(deps: OrganizationsDeps) {
  return async (request: UnsubscribeRequest, ctx: CallContext): Promise<DeckMessage> => {
    const { deck } = await visibleDeck(deps, ctx, request.deckId);
    const userId = ctx.caller.userId;
    await prismaTransaction(deps.db, async (tx) => {
      const removed = await tx.subscription.deleteMany({ where: { deckId: deck.id, userId } });
      if (removed.count > 0) await unsubscribed(tx, deck.id, userId, userId);
    });
    return deckMessage(deps.db, deck, userId);
  };
}
