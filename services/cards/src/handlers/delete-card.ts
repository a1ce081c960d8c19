// DeleteCard: removes one of the caller's cards with its review items and tags (its past reviews stay
// in the learner's history and statistics).
import { deleteCardInput } from '@engram/contracts/cards';
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { DeleteCardRequest, DeleteCardResponse } from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';

export function deleteCard({ db }: Stores) {
  return async (request: DeleteCardRequest, ctx: CallContext): Promise<DeleteCardResponse> => {
    const { id } = parseInput(deleteCardInput, request);
    const { count } = await db.card.deleteMany({ where: { id, ownerId: ctx.caller.userId } });
    if (count === 0) throw new NotFound('Card not found.', 'CARD_NOT_FOUND');
    return {};
  };
}
