// ArchiveCard: archives or restores one of the caller's cards (archived cards are never due). The card's
// review items carry the flag too, in the same transaction (card-writes' setArchived).
import { archiveCardInput } from '@engram/contracts/cards';
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ArchiveCardRequest, ArchiveCardResponse } from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { setArchived } from '../domain/card-writes.js';
import { toProtoCard, WITH_TAGS } from '../domain/to-proto.js';

export function archiveCard({ db }: Stores) {
  return async (request: ArchiveCardRequest, ctx: CallContext): Promise<ArchiveCardResponse> => {
    const { id, archived } = parseInput(archiveCardInput, request);
    const ownerId = ctx.caller.userId;
    const count = await db.$transaction((tx) => setArchived(tx, { ids: [id], ownerId }, archived));
    if (count === 0) throw new NotFound('Card not found.', 'CARD_NOT_FOUND');
    return { card: toProtoCard(await db.card.findUniqueOrThrow({ where: { id }, include: WITH_TAGS })) };
  };
}
