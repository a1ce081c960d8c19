// A checked and re-encoded card file (keepFileApart) made the learner's: the file they already have with these
// bytes, or a new one put in the store under its own key and recorded within their storage quota, under their
// storage lock, in one transaction (media/quota.ts). Two calls keeping the same bytes at once (a second tab, a
// tool's retry) end with one file. FinishUpload and AnkiConnect's files both keep files this way.
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '@engram/kit/db';
import type { CallContext } from '@engram/kit/grpc/server';
import type { MediaFile, Prisma } from '../generated/prisma/client.js';
import type { KeptFile } from './keep-file.js';
import type { MediaDeps } from './media-deps.js';
import { mediaKey } from './media-json.js';
import { assertRoomFor, lockStorage } from './quota.js';

/** A name with the kept bytes' extension ("diagram.svg" kept as a PNG is "diagram.png"). */
export function renamed(name: string, extension: string): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return `${stem}${extension}`;
}

export interface StoreKeptFile {
  file: KeptFile;
  /** The name it came with; it is shown with the kept bytes' extension. */
  name: string;
  /** The upload it came in, whose declared room it takes over (and which is marked as kept with the file). */
  uploadId?: string;
}

/** The learner's file of `file`'s bytes, and whether it was theirs already. */
export async function storeKeptFile(
  { db, store, quotaOf }: Pick<MediaDeps, 'db' | 'store' | 'quotaOf'>,
  ctx: CallContext,
  { file, name, uploadId }: StoreKeptFile,
): Promise<{ media: MediaFile; existing: boolean }> {
  const ownerId = ctx.caller.userId;
  const same = { ownerId_sha256: { ownerId, sha256: file.sha256 } };
  const existing = await db.mediaFile.findUnique({ where: same });
  if (existing) return { media: existing, existing: true };
  const quota = await quotaOf(ctx);
  const id = randomUUID();
  const objectKey = mediaKey(ownerId, id, file.extension);
  await store.putObject(objectKey, file.bytes, { contentType: file.contentType, contentLength: file.bytes.length });
  try {
    const media = await db.$transaction(async (tx: Prisma.TransactionClient) => {
      await lockStorage(tx, ownerId);
      await assertRoomFor(tx, ownerId, file.bytes.length, quota, uploadId);
      const created = await tx.mediaFile.create({
        data: {
          id,
          ownerId,
          name: renamed(name, file.extension),
          kind: file.kind,
          contentType: file.contentType,
          size: BigInt(file.bytes.length),
          sha256: file.sha256,
          objectKey,
        },
      });
      if (uploadId) await tx.upload.update({ where: { id: uploadId }, data: { mediaId: created.id } });
      return created;
    });
    return { media, existing: false };
  } catch (error) {
    await store.deleteObject(objectKey);
    // The same bytes kept at this very moment by another call: that file is the answer.
    if (!isUniqueViolation(error)) throw error;
    return { media: await db.mediaFile.findUniqueOrThrow({ where: same }), existing: true };
  }
}

/** The whole of `body`, or undefined once it passes `limit` bytes. */
export async function readAtMost(body: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > limit) return undefined;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
