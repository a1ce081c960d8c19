// CreateCard: stores a card for the calling user, with its review items and tags, and records
// CardCreated in the same transaction. Retry-safe: a repeat with the same idempotency key returns the
// card the first call created.
import { createCardCommand } from '@engram/contracts/cards';
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { CreateCardRequest, CreateCardResponse } from '@engram/proto/cards/v1/cards';
import type { z } from 'zod';
import type { Db, Stores } from '../db.js';
import { insertCard } from '../domain/card-writes.js';
import { claimCreateRequest, recordCreatedCards, requestDigest } from '../domain/create-requests.js';
import { assertOwnTags } from '../domain/owned-tags.js';
import { newCardOf, toProtoCard } from '../domain/to-proto.js';
import { recordCardCreated } from '../events/card-created.js';

export type CreateCardCommand = z.infer<typeof createCardCommand>;

/**
 * The card `command` asks for, created for `ownerId` in one transaction with its review items, its tags, its
 * CardCreated event and its idempotency record; or, for a key seen before, the card that call created.
 */
export function createCardOnce(db: Db, ownerId: string, command: CreateCardCommand) {
  const { idempotencyKey, ...input } = command;
  return prismaTransaction(db, async (tx) => {
    const claim = await claimCreateRequest(tx, ownerId, idempotencyKey, requestDigest('card', input));
    if (!claim.fresh) return { card: claim.cards[0]!, repeated: true };
    await assertOwnTags(tx, ownerId, input.tagIds);
    const created = await insertCard(tx, ownerId, input, new Date());
    await recordCardCreated(tx, created);
    await recordCreatedCards(tx, ownerId, idempotencyKey, [created.id]);
    return { card: created, repeated: false };
  });
}

export function createCard({ db }: Stores) {
  return async (request: CreateCardRequest, ctx: CallContext): Promise<CreateCardResponse> => {
    const command = parseInput(createCardCommand, newCardOf(request));
    const { card, repeated } = await createCardOnce(db, ctx.caller.userId, command);
    ctx.logger.info({ cardId: card.id, repeated }, repeated ? 'card create repeated' : 'card created');
    return { card: toProtoCard(card) };
  };
}
