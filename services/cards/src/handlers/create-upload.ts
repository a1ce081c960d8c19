// CreateUpload: a place in the store for one file and the presigned PUT that sends it there. A card's file
// takes its room in the plan's storage quota as it is remembered, under the learner's storage lock
// (media/quota.ts), so uploads begun at once cannot together pass the quota; a collection to import is checked
// against the plan's allowance of files waiting to be imported (imports/upload-allowance.ts: it is read, then
// forgotten). The upload is remembered until it expires, so an abandoned one is swept away with its bytes (and its
// room freed).
import { randomUUID } from 'node:crypto';
import { IMPORT_UPLOAD_HOURS } from '@engram/contracts/collection-limits';
import { createUploadInput, safeMediaName } from '@engram/contracts/media';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { CreateUploadRequest, CreateUploadResponse } from '@engram/proto/cards/v1/media';
import { assertRoomToWait } from '../imports/upload-allowance.js';
import type { MediaDeps } from '../media/media-deps.js';
import { uploadKey } from '../media/media-json.js';
import { assertRoomFor, lockStorage } from '../media/quota.js';

/** How long the browser has to send the bytes, and how long a card's file waits to be kept. */
const PUT_SECONDS = 15 * 60;
const CARD_UPLOAD_HOURS = 1;

export function createUpload({ db, store, quotaOf }: MediaDeps) {
  return async (request: CreateUploadRequest, ctx: CallContext): Promise<CreateUploadResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(createUploadInput, request);
    const quota = await quotaOf(ctx);
    const id = randomUUID();
    const objectKey = uploadKey(ownerId, id);
    const contentType = input.purpose === 'card' ? input.contentType.toLowerCase() : 'application/octet-stream';
    const hours = input.purpose === 'card' ? CARD_UPLOAD_HOURS : IMPORT_UPLOAD_HOURS;
    const expiresAt = new Date(Date.now() + hours * 3_600_000);
    const data = {
      id,
      ownerId,
      purpose: input.purpose,
      name: safeMediaName(input.name),
      size: BigInt(input.size),
      contentType,
      objectKey,
      expiresAt,
    };
    await db.$transaction(async (tx) => {
      if (input.purpose === 'card') {
        await lockStorage(tx, ownerId);
        await assertRoomFor(tx, ownerId, input.size, quota);
      } else {
        await assertRoomToWait(tx, ownerId, input.size, quota.plan);
      }
      await tx.upload.create({ data });
    });
    const put = await store.presignPut(objectKey, {
      contentType,
      contentLength: input.size,
      expiresInSeconds: PUT_SECONDS,
    });
    ctx.logger.info({ uploadId: id, purpose: input.purpose, size: input.size }, 'upload created');
    return { uploadId: id, url: put.url, headers: put.headers, expiresAt: new Date(Date.now() + PUT_SECONDS * 1_000) };
  };
}
