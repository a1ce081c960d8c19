// FinishUpload: keeps an uploaded card file. Its bytes are read back from the store, checked and re-encoded
// (media/keep-file.ts, in a child process: keep-file-apart.ts), stored under the file's own key, and the upload's bytes are removed. The same bytes
// kept before by this learner answer the file they already have; a retry answers the file it kept. The kept
// file takes its room (its own size now, the upload's declared size no longer) in one transaction under the
// learner's storage lock (media/quota.ts). A refused file leaves nothing: neither its bytes nor its upload.
import { randomUUID } from 'node:crypto';
import { MAX_AUDIO_BYTES, MAX_IMAGE_BYTES, MEDIA_REASONS } from '@engram/contracts/media';
import { isUniqueViolation } from '@engram/kit/db';
import { FailedPrecondition, Invalid, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { FinishUploadRequest, FinishUploadResponse } from '@engram/proto/cards/v1/media';
import { z } from 'zod';
import type { MediaFile } from '../generated/prisma/client.js';
import type { KeptFile } from '../media/keep-file.js';
import { keepFileApart } from '../media/keep-file-apart.js';
import type { MediaDeps } from '../media/media-deps.js';
import { mediaKey, toProtoMedia } from '../media/media-json.js';
import { assertRoomFor, lockStorage } from '../media/quota.js';

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

    const existing = await db.mediaFile.findUnique({ where: { ownerId_sha256: { ownerId, sha256: file.sha256 } } });
    if (existing) {
      await db.upload.update({ where: { id: upload.id }, data: { mediaId: existing.id } });
      await store.deleteObject(upload.objectKey);
      return { media: toProtoMedia(existing) };
    }
    const quota = await quotaOf(ctx);
    const id = randomUUID();
    const objectKey = mediaKey(ownerId, id, file.extension);
    await store.putObject(objectKey, file.bytes, { contentType: file.contentType, contentLength: file.bytes.length });
    let media: MediaFile;
    try {
      media = await db.$transaction(async (tx) => {
        await lockStorage(tx, ownerId);
        await assertRoomFor(tx, ownerId, file.bytes.length, quota, upload.id);
        const created = await tx.mediaFile.create({
          data: {
            id,
            ownerId,
            name: renamed(upload.name, file.extension),
            kind: file.kind,
            contentType: file.contentType,
            size: BigInt(file.bytes.length),
            sha256: file.sha256,
            objectKey,
          },
        });
        await tx.upload.update({ where: { id: upload.id }, data: { mediaId: created.id } });
        return created;
      });
    } catch (error) {
      await store.deleteObject(objectKey);
      // The same bytes kept at this very moment by another call (a second tab): that file is the answer.
      if (!isUniqueViolation(error)) {
        if (error instanceof FailedPrecondition) await discardUpload();
        throw error;
      }
      media = await db.mediaFile.findUniqueOrThrow({ where: { ownerId_sha256: { ownerId, sha256: file.sha256 } } });
      await db.upload.update({ where: { id: upload.id }, data: { mediaId: media.id } });
    }
    await store.deleteObject(upload.objectKey);
    ctx.logger.info({ mediaId: media.id, kind: media.kind, size: file.bytes.length }, 'card file kept');
    return { media: toProtoMedia(media) };
  };
}

/** The uploaded name with the kept file's extension ("diagram.svg" kept as a PNG is "diagram.png"). */
export function renamed(name: string, extension: string): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return `${stem}${extension}`;
}

/** The whole of `body`, or undefined once it passes `limit` bytes. */
async function readAtMost(body: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > limit) return undefined;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
