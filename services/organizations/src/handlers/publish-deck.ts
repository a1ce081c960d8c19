// PublishDeck: a tag's cards shared as a deck with the organization or one team. The deck, its cards and
// their DeckCardPublished events commit in one transaction.
import { checkDeck, SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { FailedPrecondition, Invalid } from '@engram/kit/errors';
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import type { Deck as DeckMessage, PublishDeckRequest } from '@engram/proto/organizations/v1/organizations';
import { membership, requirePermission } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { cardPublished } from '../domain/deck-events.js';
import { deckMessage, LONG_TRANSACTION } from '../domain/decks.js';
import { refusal } from '../domain/refusal.js';
import { tagCards } from '../tag-cards.js';

export function publishDeck(deps: OrganizationsDeps) {
  return async (request: PublishDeckRequest, ctx: CallContext): Promise<DeckMessage> => {
    const access = await membership(deps.identity, ctx, request.organizationId);
    await requirePermission(
      deps.identity,
      ctx,
      access.organizationId,
      { deck: ['create'] },
      'You are not allowed to share decks in this organization.',
    );
    const { value: fields, problems } = checkDeck(request);
    if (problems) throw refusal(problems);
    if (request.teamId && !access.organizationTeamIds.includes(request.teamId)) {
      throw new Invalid('That team is not in this organization.', 'TEAM_NOT_FOUND');
    }
    const cards = await tagCards(deps.cards, ctx, fields.tagId);
    if (cards.length === 0) {
      throw new FailedPrecondition('That tag has no cards to share.', SHARED_DECK_REASONS.deckEmpty);
    }
    const deck = await prismaTransaction(
      deps.db,
      async (tx) => {
        const created = await tx.deck.create({
          data: {
            organizationId: access.organizationId,
            teamId: request.teamId || null,
            name: fields.name,
            description: fields.description,
            publisherId: ctx.caller.userId,
            sourceTagId: fields.tagId,
          },
        });
        await tx.deckCard.createMany({
          data: cards.map((card) => ({ deckId: created.id, ...card, revision: 1n })),
        });
        for (const card of cards) await cardPublished(tx, created.id, { ...card, revision: 1n }, ctx.caller.userId);
        return created;
      },
      LONG_TRANSACTION,
    );
    ctx.logger.info({ deck: deck.id, cards: cards.length }, 'deck published');
    return deckMessage(deps.db, deck, ctx.caller.userId);
  };
}
