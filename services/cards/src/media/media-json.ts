// A kept file as the MediaService answers it.
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

/** Where a kept file's bytes are in the store. */
export const mediaKey = (ownerId: string, id: string, extension: string) =>
  `media/${encodeURIComponent(ownerId)}/${id}${extension}`;

/** Where an upload's bytes wait in the store until they are kept or read. */
export const uploadKey = (ownerId: string, id: string) => `uploads/${encodeURIComponent(ownerId)}/${id}`;
