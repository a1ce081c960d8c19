// DeleteMedia: removes one of the learner's files and its bytes, once no card of theirs shows it (a card
// would show a broken image). A file a subscriber's copy shows stays readable to them until the publisher's
// card stops showing it and the deck is published again.
import { MEDIA_REASONS } from '@engram/contracts/media';
import { FailedPrecondition, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { DeleteMediaRequest, DeleteMediaResponse } from '@engram/proto/cards/v1/media';
import { z } from 'zod';
import type { MediaDeps } from '../media/media-deps.js';

const deleteMediaInput = z.object({ id: z.uuid('The file id is not valid.') });

export function deleteMedia({ db, store }: MediaDeps) {
  return async (request: DeleteMediaRequest, ctx: CallContext): Promise<DeleteMediaResponse> => {
    const ownerId = ctx.caller.userId;
    const { id } = parseInput(deleteMediaInput, request);
    const file = await db.mediaFile.findFirst({ where: { id, ownerId } });
    if (!file) throw new NotFound('File not found.', 'MEDIA_NOT_FOUND');
    const shownBy = await db.cardMedia.count({ where: { mediaId: id, card: { ownerId } } });
    if (shownBy > 0) {
      throw new FailedPrecondition(
        `${shownBy === 1 ? 'A card shows' : `${shownBy} cards show`} this file. Remove it from them first.`,
        MEDIA_REASONS.inUse,
      );
    }
    await db.mediaFile.delete({ where: { id } });
    await store.deleteObject(file.objectKey);
    ctx.logger.info({ mediaId: id }, 'card file deleted');
    return {};
  };
}
