// CreateCard: stores a card for the calling user and records engram.cards.card.created atomically.
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { CreateCardRequest, CreateCardResponse } from '@engram/proto/cards/v1/cards';
import type { Db } from '../db.js';
import { newCardSchema } from '../domain/card.js';
import { recordCardCreated } from '../events/card-created.js';
import { toProtoCard } from './to-proto.js';

export function createCard(db: Db) {
  return async (request: CreateCardRequest, ctx: CallContext): Promise<CreateCardResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(newCardSchema, request);
    const card = await db.$transaction(async (tx) => {
      const created = await tx.card.create({ data: { ownerId, front: input.front, back: input.back } });
      await recordCardCreated(tx, created);
      return created;
    });
    ctx.logger.info({ cardId: card.id }, 'card created');
    return { card: toProtoCard(card) };
  };
}
