// The files Anki's tools store (storeMediaFile, and the audio, picture and video entries of addNote): each is
// checked and re-encoded as an uploaded card file is (in a child process: keepFileApart), kept within the
// learner's storage quota, and known by the name the tool gave it (anki_media_names), which its notes then
// use: `<img src="name">`, `[sound:name]`.
import { createHash } from 'node:crypto';
import { isUuid } from '@engram/contracts/ids';
import {
  extensionOf,
  MAX_AUDIO_BYTES,
  MAX_IMAGE_BYTES,
  MEDIA_NAME_MAX_LENGTH,
  MEDIA_TYPES,
  mediaPath,
} from '@engram/contracts/media';
import type { CallContext } from '@engram/kit/grpc/server';
import { fetchOutside, OutsideFetchFailed } from '@engram/kit/outside-fetch';
import type { FileForCard } from '../imports/anki-media.js';
import { keepFileApart } from '../media/keep-file-apart.js';
import type { MediaDeps } from '../media/media-deps.js';
import { readAtMost, storeKeptFile } from '../media/store-kept-file.js';
import { ankiError } from './anki-error.js';
import { resolvePendingMedia } from './fields.js';

/** The kinds of file AnkiConnect names, and what a note shows them as. */
export type AnkiMediaKind = 'audio' | 'video' | 'picture';

const TYPE_OF_EXTENSION = new Map(
  Object.entries(MEDIA_TYPES).flatMap(([contentType, { extensions }]) =>
    extensions.map((extension) => [extension, contentType] as const),
  ),
);

/** A name as Anki keeps it: its last path segment, trimmed; refused when empty or too long. */
export function ankiMediaName(filename: unknown): string {
  const name = (typeof filename === 'string' ? filename : '').split(/[\\/]/).pop()?.trim() ?? '';
  if (name === '') throw ankiError('filename must be given');
  if (name.length > MEDIA_NAME_MAX_LENGTH) throw ankiError(`filename is at most ${MEDIA_NAME_MAX_LENGTH} characters`);
  return name;
}

/** The type a card file named `name` claims by its extension; refused when Engram keeps no such file. */
export function claimedTypeOf(name: string): string {
  const type = TYPE_OF_EXTENSION.get(extensionOf(name));
  if (!type) {
    throw ankiError(
      `Engram keeps pictures (PNG, JPEG, WebP, GIF, SVG) and sounds (MP3, OGG, M4A, WAV, WebM, FLAC), not ${name}`,
    );
  }
  return type;
}

/** The bytes of a base64 `data` field; refused when it is not base64. */
export function bytesOfBase64(data: string): Buffer {
  const compact = data.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw ankiError('data must be base64');
  return Buffer.from(compact, 'base64');
}

/**
 * Keeps `bytes` as the learner's file called `name` and answers the name it is stored under: `name`, or, when
 * another file has it and `deleteExisting` is false, the name with the bytes' SHA-1 after its stem (Anki's way).
 */
export async function storeAnkiMedia(
  deps: MediaDeps,
  ctx: CallContext,
  request: { name: string; bytes: Buffer; deleteExisting: boolean },
): Promise<{ name: string; file: FileForCard }> {
  const ownerId = ctx.caller.userId;
  const claimedType = claimedTypeOf(request.name);
  const limit = claimedType.startsWith('image/') ? MAX_IMAGE_BYTES : MAX_AUDIO_BYTES;
  if (request.bytes.length > limit) {
    throw ankiError(
      `${request.name} is larger than ${Math.round(limit / 1024 / 1024)} MB, the most a card file may be`,
    );
  }
  if (request.bytes.length === 0) throw ankiError(`${request.name} is empty`);
  const kept = await keepFileApart(deps.fileChecks, ownerId, request.bytes, claimedType, ctx.signal);
  const { media } = await storeKeptFile(deps, ctx, { file: kept, name: request.name });
  let name = request.name;
  const named = await deps.db.ankiMediaName.findUnique({ where: { ownerId_name: { ownerId, name } } });
  if (named && named.mediaId !== media.id && !request.deleteExisting) {
    const extension = extensionOf(name);
    const sha1 = createHash('sha1').update(request.bytes).digest('hex');
    name = `${name.slice(0, name.length - extension.length)}-${sha1}${extension}`;
  }
  await deps.db.ankiMediaName.upsert({
    where: { ownerId_name: { ownerId, name } },
    create: { ownerId, name, mediaId: media.id },
    update: { mediaId: media.id, storedAt: new Date() },
  });
  const file = { id: media.id, path: mediaPath(media.id, media.name), kind: media.kind as FileForCard['kind'] };
  await resolvePendingMedia(deps.db, ownerId, name, file);
  return { name, file };
}

/**
 * The bytes of a file the gateway sent to the store for an AnkiConnect request (an upload of the learner's, for a
 * card), read once: the upload and its object go at once, whatever becomes of the file.
 */
export async function bytesOfUpload({ db, store }: MediaDeps, ownerId: string, uploadId: string): Promise<Buffer> {
  const upload = isUuid(uploadId)
    ? await db.upload.findFirst({ where: { id: uploadId, ownerId, purpose: 'card' } })
    : null;
  if (!upload) throw ankiError('the file was not received: send it again');
  const object = await store.getObject(upload.objectKey);
  try {
    if (!object) throw ankiError('the file was not received: send it again');
    const limit = upload.contentType.startsWith('image/') ? MAX_IMAGE_BYTES : MAX_AUDIO_BYTES;
    const bytes = await readAtMost(object.body, limit);
    if (!bytes) throw ankiError(`${upload.name} is larger than it said`);
    return bytes;
  } finally {
    await store.deleteObject(upload.objectKey);
    await db.upload.deleteMany({ where: { id: upload.id } });
  }
}

/** How long fetching one media `url` may take. */
export const MEDIA_FETCH_TIMEOUT_MS = 15_000;

/** Fetches a media entry's `url` through the outside-fetch guard; a refusal is the action's error. */
export const fetchAnkiMedia =
  ({ allowPrivate }: { allowPrivate: boolean }) =>
  async (url: string, signal: AbortSignal): Promise<Buffer> => {
    try {
      const { bytes } = await fetchOutside(url, {
        maxBytes: Math.max(MAX_AUDIO_BYTES, MAX_IMAGE_BYTES),
        timeoutMs: MEDIA_FETCH_TIMEOUT_MS,
        allowPrivate,
        signal,
      });
      return bytes;
    } catch (error) {
      if (error instanceof OutsideFetchFailed) throw ankiError(error.message);
      throw error;
    }
  };
