// OpenMedia: where the gateway reads a file for the caller. Its owner may read it, and so may a learner
// with a card that shows it (linkMedia, domain/card-writes.ts: a copy of a shared deck's card); anyone
// else is told it does not exist, whether or not they guessed a real id.

import { isUuid } from '@engram/contracts/ids';
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { OpenMediaRequest, OpenMediaResponse } from '@engram/proto/cards/v1/media';
import type { MediaDeps } from '../media/media-deps.js';

/** Long enough for the gateway to start reading, short enough that a leaked URL is soon useless. */
const READ_SECONDS = 60;

const notFound = () => new NotFound('File not found.', 'MEDIA_NOT_FOUND');

export function openMedia({ db, store }: MediaDeps) {
  return async (request: OpenMediaRequest, ctx: CallContext): Promise<OpenMediaResponse> => {
    const reader = ctx.caller.userId;
    if (!isUuid(request.id)) throw notFound();
    const file = await db.mediaFile.findFirst({
      where: {
        id: request.id.toLowerCase(),
        OR: [{ ownerId: reader }, { cards: { some: { card: { ownerId: reader } } } }],
      },
    });
    if (!file) throw notFound();
    const url = await store.presignGet(file.objectKey, { expiresInSeconds: READ_SECONDS });
    return { url, contentType: file.contentType, size: Number(file.size), name: file.name };
  };
}
