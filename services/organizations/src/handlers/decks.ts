// ListDecks, PublishDeck, SyncDeck and DeleteDeck: a tag's cards shared as a deck with the organization
// or one team, kept in step with the publisher's cards, and withdrawn. Every change and its events
// (DeckCardPublished, DeckCardWithdrawn, DeckUnsubscribed) commit in one transaction.

import { checkDeck, LEARNING_REASONS } from '@engram/contracts/shared-decks';
import { FailedPrecondition, Invalid, PermissionDenied } from '@engram/kit/errors';
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import type {
  Deck as DeckMessage,
  DeleteDeckRequest,
  DeleteDeckResponse,
  ListDecksRequest,
  ListDecksResponse,
  PublishDeckRequest,
  SyncDeckRequest,
} from '@engram/proto/organizations/v1/organizations';
import { allowed, membership, requirePermission } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { cardPublished, cardWithdrawn, unsubscribed } from '../domain/deck-events.js';
import { deckMessage, deckMessages, visibleDeck } from '../domain/decks.js';
import { decodeTimedCursor, pageOf, pageSizeOf, timedCursor } from '../domain/pages.js';
import { refusal } from '../domain/refusal.js';
import { tagCards } from '../tag-cards.js';

/** A deck of DECK_CARD_LIMIT cards writes a row and an event for each. */
const LONG_TRANSACTION = { timeout: 30_000 };

export function listDecks(deps: OrganizationsDeps) {
  return async (request: ListDecksRequest, ctx: CallContext): Promise<ListDecksResponse> => {
    const size = pageSizeOf(request.pageSize);
    const after = request.cursor ? decodeTimedCursor('decks', request.cursor) : undefined;
    const access = await membership(deps.identity, ctx, request.organizationId);
    const managesDecks = await allowed(deps.identity, ctx, access.organizationId, { deck: ['update'] });
    // Who sees which deck is part of the query, so every page is full and the index's order is the page's.
    const rows = await deps.db.deck.findMany({
      where: {
        organizationId: access.organizationId,
        AND: [
          ...(managesDecks ? [] : [{ OR: [{ teamId: null }, { teamId: { in: access.teamIds } }] }]),
          ...(after ? [{ OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] }] : []),
        ],
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: size + 1,
    });
    const page = pageOf(rows, size, (deck) => timedCursor('decks', { at: deck.createdAt, id: deck.id }));
    return { decks: await deckMessages(deps.db, page.items, ctx.caller.userId), nextCursor: page.nextCursor };
  };
}

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
      throw new FailedPrecondition('That tag has no cards to share.', LEARNING_REASONS.deckEmpty);
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

export function syncDeck(deps: OrganizationsDeps) {
  return async (request: SyncDeckRequest, ctx: CallContext): Promise<DeckMessage> => {
    // visibleDeck asked identity for deck:update already.
    const { deck, managesDecks } = await visibleDeck(deps, ctx, request.deckId);
    if (!managesDecks) {
      throw new PermissionDenied(
        'You are not allowed to change decks in this organization.',
        LEARNING_REASONS.permissionDenied,
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
        LEARNING_REASONS.deckEmpty,
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
