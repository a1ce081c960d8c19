// FinishUpload: keeps an uploaded card file. Its bytes are read back from the store, checked and re-encoded
// (media/keep-file.ts, in a child process: keep-file-apart.ts), kept as the learner's file (store-kept-file.ts:
// the same bytes kept before answer the file they already have; a new file takes its room, the upload's declared
// size no longer, under the learner's storage lock), and the upload's bytes are removed. A retry answers the
// file it kept. A refused file leaves nothing: neither its bytes nor its upload.
import { MAX_AUDIO_BYTES, MAX_IMAGE_BYTES, MEDIA_REASONS } from '@engram/contracts/media';
import { FailedPrecondition, Invalid, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { FinishUploadRequest, FinishUploadResponse } from '@engram/proto/cards/v1/media';
import { z } from 'zod';
import type { MediaFile } from '../generated/prisma/client.js';
import type { KeptFile } from '../media/keep-file.js';
import { keepFileApart } from '../media/keep-file-apart.js';
import type { MediaDeps } from '../media/media-deps.js';
import { toProtoMedia } from '../media/media-json.js';
import { readAtMost, storeKeptFile } from '../media/store-kept-file.js';

const finishInput = z.object({ uploadId: z.uuid('The upload is not valid.') });

const notUploaded = () =>
  new FailedPrecondition('The file has not arrived yet. Send it again.', MEDIA_REASONS.notUploaded);

export function finishUpload({ db, store, quotaOf, fileChecks }: MediaDeps) {
  return async (request: FinishUploadRequest, ctx: CallContext): Promise<FinishUploadResponse> => {
    const ownerId = ctx.caller.userId;
    const { uploadId } = parseInput(finishInput, request);
    const upload = await db.upload.findFirst({ where: { id: uploadId, ownerId, purpose: 'card' } });
    if (!upload) throw new NotFound('Upload not found.', 'UPLOAD_NOT_FOUND');
    if (upload.mediaId) {
      const kept = await db.mediaFile.findFirst({ where: { id: upload.mediaId, ownerId } });
      if (kept) return { media: toProtoMedia(kept) };
    }
    const object = await store.getObject(upload.objectKey);
    if (!object) throw notUploaded();
    // Whatever refuses the file from here on leaves nothing behind: the upload's bytes and its room go.
    const discardUpload = async () => {
      await store.deleteObject(upload.objectKey);
      await db.upload.deleteMany({ where: { id: upload.id } });
    };
    let file: KeptFile;
    try {
      // The presigned PUT fixed the length; a store that took more is not trusted with it.
      const limit = upload.contentType.startsWith('image/') ? MAX_IMAGE_BYTES : MAX_AUDIO_BYTES;
      const bytes = await readAtMost(object.body, limit);
      if (!bytes) throw new Invalid('The file is larger than it said.', MEDIA_REASONS.tooLarge);
      file = await keepFileApart(fileChecks, ownerId, bytes, upload.contentType, ctx.signal);
    } catch (error) {
      if (error instanceof Invalid) await discardUpload();
      throw error;
    }

    let media: MediaFile;
    let existing: boolean;
    try {
      ({ media, existing } = await storeKeptFile({ db, store, quotaOf }, ctx, {
        file,
        name: upload.name,
        uploadId: upload.id,
      }));
    } catch (error) {
      // Over the quota: the upload and its bytes go too.
      if (error instanceof FailedPrecondition) await discardUpload();
      throw error;
    }
    if (existing) await db.upload.update({ where: { id: upload.id }, data: { mediaId: media.id } });
    await store.deleteObject(upload.objectKey);
    ctx.logger.info({ mediaId: media.id, kind: media.kind, size: file.bytes.length }, 'card file kept');
    return { media: toProtoMedia(media) };
  };
}
