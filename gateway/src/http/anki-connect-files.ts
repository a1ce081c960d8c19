// The files inside AnkiConnect requests (storeMediaFile's `data`, a note's audio, picture and video `data`, as
// base64) go to the object store, not through gRPC: a request is read whole here (a screenshot and a sound may
// make it tens of megabytes, past any gRPC message), each file of more than INLINE_FILE_MAX_BYTES is sent with a
// presigned PUT as any card file is (cards' CreateUpload: its type, size and the learner's quota checked), and
// the action goes on to cards with `uploadId` in its place, which cards reads back and keeps.
import { extensionOf, MEDIA_TYPES } from '@engram/contracts/media';
import { GrpcCallError, unary } from '@engram/kit/grpc/client';
import type { CreateUploadResponse, OpenMediaResponse } from '@engram/proto/cards/v1/media';
import { AUDIENCES, type Services } from '../clients.js';
import type { SessionInfo } from '../session.js';

/** A file this small (as base64) stays in the call: a sound clip of a word, an icon. */
export const INLINE_FILE_MAX_BYTES = 256 * 1024;
const MEDIA_FIELDS = ['audio', 'video', 'picture'] as const;
const UPLOAD_TIMEOUT_MS = 30_000;

/** An action's refusal as the tool reads it. */
export class FileRefused extends Error {}

const TYPE_OF_EXTENSION = new Map(
  Object.entries(MEDIA_TYPES).flatMap(([type, { extensions }]) => extensions.map((extension) => [extension, type])),
);

type Media = Record<string, unknown>;

/** The media entries of an action's params that may carry a file: storeMediaFile's params, notes' entries. */
function mediaOf(action: string, params: Record<string, unknown>): Media[] {
  if (action === 'storeMediaFile') return [params];
  const notes = [
    ...(action === 'addNote' || action === 'updateNoteFields' ? [params.note] : []),
    ...(action === 'addNotes' && Array.isArray(params.notes) ? params.notes : []),
  ];
  return notes.flatMap((note) => {
    if (!note || typeof note !== 'object') return [];
    return MEDIA_FIELDS.flatMap((field) => {
      const value = (note as Record<string, unknown>)[field];
      const entries = Array.isArray(value) ? value : value ? [value] : [];
      return entries.filter((entry): entry is Media => Boolean(entry) && typeof entry === 'object');
    });
  });
}

/**
 * Sends the large files of an action's params to the object store as `session`'s uploads, and puts their
 * `uploadId` in place of their `data` (the params are changed in place).
 */
export async function handOffFiles(
  services: Services,
  session: SessionInfo,
  action: string,
  params: Record<string, unknown>,
): Promise<void> {
  for (const media of mediaOf(action, params)) {
    if (typeof media.data !== 'string' || media.data.length <= INLINE_FILE_MAX_BYTES) continue;
    const name = typeof media.filename === 'string' ? media.filename : '';
    const contentType = TYPE_OF_EXTENSION.get(extensionOf(name));
    // A file Engram keeps no kind of stays in the call: cards refuses it in the protocol's words.
    if (!contentType) continue;
    const bytes = Buffer.from(media.data.replace(/\s+/g, ''), 'base64');
    media.uploadId = await upload(services, session, { name, contentType, bytes });
    delete media.data;
  }
}

async function upload(
  services: Services,
  session: SessionInfo,
  file: { name: string; contentType: string; bytes: Buffer },
): Promise<string> {
  const token = await services.signer.sign(session.caller, AUDIENCES.media);
  let slot: CreateUploadResponse;
  try {
    slot = await unary(
      services.media,
      services.media.createUpload,
      { name: file.name.slice(-200), size: file.bytes.length, contentType: file.contentType, purpose: 'card' },
      { token, timeoutMs: UPLOAD_TIMEOUT_MS },
    );
  } catch (error) {
    // The type, the size or the learner's quota: cards' words, for the tool to show.
    if (error instanceof GrpcCallError && error.reason) throw new FileRefused(error.message);
    throw error;
  }
  const put = await fetch(slot.url, {
    method: 'PUT',
    headers: slot.headers,
    body: new Uint8Array(file.bytes),
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
  if (!put.ok) throw new Error(`the object store refused an AnkiConnect file: ${put.status}`);
  return slot.uploadId;
}

/** The bytes of the learner's file `mediaId` as base64 (retrieveMediaFile), read through the store. */
export async function fileAsBase64(services: Services, session: SessionInfo, mediaId: string): Promise<string | false> {
  const token = await services.signer.sign(session.caller, AUDIENCES.media);
  let opened: OpenMediaResponse;
  try {
    opened = await unary(
      services.media,
      services.media.openMedia,
      { id: mediaId },
      { token, timeoutMs: UPLOAD_TIMEOUT_MS },
    );
  } catch (error) {
    if (error instanceof GrpcCallError && error.reason) return false;
    throw error;
  }
  const read = await fetch(opened.url, { signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS) });
  if (!read.ok) throw new Error(`the object store did not give an AnkiConnect file: ${read.status}`);
  return Buffer.from(await read.arrayBuffer()).toString('base64');
}
