// CreateCard: stores a card for the calling user, with its review items and tags, and records
// engram.cards.card.created in the same transaction.
import { createCardInput } from '@engram/contracts/cards';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { CreateCardRequest, CreateCardResponse } from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { insertCard } from '../domain/card-writes.js';
import { assertOwnTags } from '../domain/owned-tags.js';
import { recordCardCreated } from '../events/card-created.js';
import { toProtoCard } from './to-proto.js';

export function createCard({ db }: Stores) {
  return async (request: CreateCardRequest, ctx: CallContext): Promise<CreateCardResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(createCardInput, { ...request, type: request.type || undefined });
    const card = await db.$transaction(async (tx) => {
      await assertOwnTags(tx, ownerId, input.tagIds);
      const created = await insertCard(tx, ownerId, input, new Date());
      await recordCardCreated(tx, created);
      return created;
    });
    ctx.logger.info({ cardId: card.id }, 'card created');
    return { card: toProtoCard(card) };
  };
}
