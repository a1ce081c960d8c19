// CreateCards: up to 500 cards in one transaction (all or none), each with its event.
import { createManyInput } from '@engram/contracts/cards';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { CreateCardsRequest, CreateCardsResponse } from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { insertCard } from '../domain/card-writes.js';
import { assertOwnTags } from '../domain/owned-tags.js';
import { recordCardCreated } from '../events/card-created.js';
import { toProtoCard } from './to-proto.js';

export function createCards({ db }: Stores) {
  return async (request: CreateCardsRequest, ctx: CallContext): Promise<CreateCardsResponse> => {
    const ownerId = ctx.caller.userId;
    const { cards } = parseInput(createManyInput, {
      cards: request.cards.map((card) => ({ ...card, type: card.type || undefined })),
    });
    const created = await db.$transaction(
      async (tx) => {
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
        return rows;
      },
      { timeout: 30_000 },
    );
    ctx.logger.info({ count: created.length }, 'cards created');
    return { cards: created.map(toProtoCard) };
  };
}
