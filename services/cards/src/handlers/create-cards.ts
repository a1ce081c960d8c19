// CreateCards: up to 500 cards in one transaction (all or none), each with its event. Retry-safe: a
// repeat with the same idempotency key returns the cards the first call created.
import { createManyCommand } from '@engram/contracts/cards';
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { CreateCardsRequest, CreateCardsResponse } from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { insertCard } from '../domain/card-writes.js';
import { claimCreateRequest, recordCreatedCards, requestDigest } from '../domain/create-requests.js';
import { assertOwnTags } from '../domain/owned-tags.js';
import { newCardOf, toProtoCard } from '../domain/to-proto.js';
import { recordCardCreated } from '../events/card-created.js';

export function createCards({ db }: Stores) {
  return async (request: CreateCardsRequest, ctx: CallContext): Promise<CreateCardsResponse> => {
    const ownerId = ctx.caller.userId;
    const { cards, idempotencyKey } = parseInput(createManyCommand, {
      cards: request.cards.map(newCardOf),
      idempotencyKey: request.idempotencyKey,
    });
    const { created, repeated } = await prismaTransaction(
      db,

      async (tx) => {
        const claim = await claimCreateRequest(tx, ownerId, idempotencyKey, requestDigest('cards', cards));
        if (!claim.fresh) return { created: claim.cards, repeated: true };
        await assertOwnTags(
          tx,
          ownerId,
          cards.flatMap((card) => card.tagIds),
        );
        const now = new Date();
        const rows = [];
        for (const card of cards) {
          const row = await insertCard(tx, ownerId, card, now);
          await recordCardCreated(tx, row);
          rows.push(row);
        }
        await recordCreatedCards(
          tx,
          ownerId,
          idempotencyKey,
          rows.map((row) => row.id),
        );
        return { created: rows, repeated: false };
      },
      { timeout: 30_000 },
    );
    ctx.logger.info({ count: created.length, repeated }, repeated ? 'cards create repeated' : 'cards created');
    return { cards: created.map(toProtoCard) };
  };
}
