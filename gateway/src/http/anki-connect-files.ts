// The files inside AnkiConnect requests (storeMediaFile's `data`, a note's audio, picture and video `data`, as
// base64) go to the object store, not through gRPC: a request may be tens of megabytes (a screenshot and a sound),
// past any gRPC message. Each file of more than INLINE_FILE_MAX_BYTES, decoded as the body was read
// (anki-connect-media.ts, in a worker when large), is sent with a presigned PUT as any card file is (cards'
// CreateUpload: its type, size and the learner's quota checked), and the action goes on to cards with `uploadId` in
// its place, which cards reads back and keeps. retrieveMediaFile's file is read back through the store.
import { GrpcCallError, unary } from '@engram/kit/grpc/client';
import type { CreateUploadResponse, OpenMediaResponse } from '@engram/proto/cards/v1/media';
import { AUDIENCES, type Services } from '../clients.js';
import type { SessionInfo } from '../session.js';
import { contentTypeOf, FILE_MARK, mediaOf } from './anki-connect-media.js';

const UPLOAD_TIMEOUT_MS = 30_000;

/** An action's refusal as the tool reads it. */
export class FileRefused extends Error {}

/**
 * Sends the files taken out of an action's params (anki-connect-media.ts marks them `{ [FILE_MARK]: n }`, their
 * bytes being `files[n]`) to the object store as `session`'s uploads, and puts their `uploadId` in place of their
 * `data` (the params are changed in place).
 */
export async function handOffFiles(
  services: Services,
  session: SessionInfo,
  action: string,
  params: Record<string, unknown>,
  files: Uint8Array[],
): Promise<void> {
  for (const media of mediaOf(action, params)) {
    const mark = media.data as Record<string, unknown> | null | undefined;
    const bytes = typeof mark === 'object' && mark !== null ? files[mark[FILE_MARK] as number] : undefined;
    if (!bytes) continue;
    const name = typeof media.filename === 'string' ? media.filename : '';
    const contentType = contentTypeOf(name) ?? 'application/octet-stream';
    media.uploadId = await upload(services, session, { name, contentType, bytes });
    delete media.data;
  }
}

async function upload(
  services: Services,
  session: SessionInfo,
  file: { name: string; contentType: string; bytes: Uint8Array },
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
    body: file.bytes,
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
  if (!put.ok) throw new Error(`the object store refused an AnkiConnect file: ${put.status}`);
  return slot.uploadId;
}

/** The bytes of the learner's file `mediaId` (retrieveMediaFile), read through the store. */
export async function fileBytes(
  services: Services,
  session: SessionInfo,
  mediaId: string,
): Promise<Uint8Array | false> {
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
  return new Uint8Array(await read.arrayBuffer());
}
