// DeleteDeck: withdraws a deck; its subscriptions end (DeckUnsubscribed each) in the same transaction.
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import type { DeleteDeckRequest, DeleteDeckResponse } from '@engram/proto/organizations/v1/organizations';
import { requirePermission } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { unsubscribed } from '../domain/deck-events.js';
import { visibleDeck } from '../domain/decks.js';

export function deleteDeck(deps: OrganizationsDeps) {
  return async (request: DeleteDeckRequest, ctx: CallContext): Promise<DeleteDeckResponse> => {
    const { deck } = await visibleDeck(deps, ctx, request.deckId);
    await requirePermission(
      deps.identity,
      ctx,
      deck.organizationId,
      { deck: ['delete'] },
      'You are not allowed to withdraw decks in this organization.',
    );
    await prismaTransaction(deps.db, async (tx) => {
      const subscriptions = await tx.subscription.findMany({ where: { deckId: deck.id } });
      for (const { userId } of subscriptions) await unsubscribed(tx, deck.id, userId, ctx.caller.userId);
      await tx.deckReview.deleteMany({ where: { deckId: deck.id } });
      await tx.deck.delete({ where: { id: deck.id } });
    });
    ctx.logger.info({ deck: deck.id }, 'deck withdrawn');
    return {};
  };
}
