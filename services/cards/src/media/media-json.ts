// A kept file as the MediaService answers it, and where files are in the store.
import { createHash } from 'node:crypto';
import { mediaPath } from '@engram/contracts/media';
import type { Media } from '@engram/proto/cards/v1/media';
import type { MediaFile } from '../generated/prisma/client.js';

export const toProtoMedia = (file: MediaFile, cardCount = 0): Media => ({
  id: file.id,
  name: file.name,
  kind: file.kind,
  contentType: file.contentType,
  size: Number(file.size),
  path: mediaPath(file.id, file.name),
  createdAt: file.createdAt,
  cardCount,
});

/**
 * The folder of a learner's objects: a hash of their id, so the store's keys (and its logs) never name a
 * person, and nothing of an erased learner's id stays behind in the queue of objects to remove.
 */
const ownerFolder = (ownerId: string) => createHash('sha256').update(ownerId).digest('hex').slice(0, 32);

/** Where a kept file's bytes are in the store. */
export const mediaKey = (ownerId: string, id: string, extension: string) =>
  `media/${ownerFolder(ownerId)}/${id}${extension}`;

/** Where an upload's bytes wait in the store until they are kept or read. */
export const uploadKey = (ownerId: string, id: string) => `uploads/${ownerFolder(ownerId)}/${id}`;

/** Where an export's file waits in the store until it expires. */
export const exportKey = (ownerId: string, id: string, fileName: string) =>
  `exports/${ownerFolder(ownerId)}/${id}/${fileName}`;
