// The files inside AnkiConnect requests and replies, and the work on them that must not hold up the gateway's
// event loop. A request may be tens of megabytes of base64 (a screenshot, a sound: storeMediaFile's `data`, a
// note's audio, picture and video), and so may retrieveMediaFile's reply: decoding, parsing and encoding that takes
// about 150 ms of one core for the largest, in which every other request of the replica would wait. Such a body is
// read, and such a reply written, by a worker thread (this module is the worker: its default export), one at a
// time per replica (anki-connect-bodies.ts); small ones are read and written in line by the same functions.
// It imports only what a worker can load by itself (no relative imports).
import { extensionOf, MEDIA_TYPES } from '@engram/contracts/media';

/** A file this small (as base64) stays in the call to cards: a sound clip of a word, an icon. */
export const INLINE_FILE_MAX_BYTES = 256 * 1024;
const MEDIA_FIELDS = ['audio', 'video', 'picture'] as const;

const TYPE_OF_EXTENSION = new Map(
  Object.entries(MEDIA_TYPES).flatMap(([type, { extensions }]) => extensions.map((extension) => [extension, type])),
);

/** The content type Engram keeps a file named `name` as, if any. */
export const contentTypeOf = (name: string) => TYPE_OF_EXTENSION.get(extensionOf(name));

type Media = Record<string, unknown>;

/** The media entries of an action's params that may carry a file: storeMediaFile's params, notes' entries. */
export function mediaOf(action: string, params: Record<string, unknown>): Media[] {
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

/** Where a file taken out of a request or put into a reply stands: its index among the files beside it. */
export const FILE_MARK = '__engramFile';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Each action of a request, `multi`'s entries (and theirs) included. */
function* actionsOf(request: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (!isObject(request) || depth > 2) return;
  yield request;
  const params = request.params;
  if (request.action === 'multi' && isObject(params) && Array.isArray(params.actions)) {
    for (const entry of params.actions) yield* actionsOf(entry, depth + 1);
  }
}

export type ReadBody = { invalid: true } | { request: unknown; files: Uint8Array[] };

/**
 * A request's body parsed, each large file of a known type decoded from its base64 and set beside it: its entry
 * says `{ [FILE_MARK]: n }` in place of `data`.
 */
export function readBody(body: Uint8Array): ReadBody {
  let request: unknown;
  try {
    request = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return { invalid: true };
  }
  const files: Uint8Array[] = [];
  for (const action of actionsOf(request)) {
    if (typeof action.action !== 'string' || !isObject(action.params)) continue;
    for (const media of mediaOf(action.action, action.params)) {
      if (typeof media.data !== 'string' || media.data.length <= INLINE_FILE_MAX_BYTES) continue;
      // A file Engram keeps no kind of stays in the call: cards refuses it in the protocol's words.
      if (!contentTypeOf(typeof media.filename === 'string' ? media.filename : '')) continue;
      // Node's base64 decoder passes over the line breaks and spaces some tools wrap base64 in.
      files.push(Buffer.from(media.data, 'base64'));
      media.data = { [FILE_MARK]: files.length - 1 };
    }
  }
  return { request, files };
}

/** A reply as JSON (UTF-8), each `{ [FILE_MARK]: n }` in it written as file n in base64 (retrieveMediaFile). */
export function writeReply(reply: unknown, files: Uint8Array[]): Uint8Array {
  return Buffer.from(
    JSON.stringify(reply, (_key, value: unknown) => {
      if (isObject(value) && typeof value[FILE_MARK] === 'number') {
        const file = files[value[FILE_MARK]];
        return file ? Buffer.from(file.buffer, file.byteOffset, file.byteLength).toString('base64') : null;
      }
      return value;
    }) ?? 'null',
  );
}

/**
 * A read body as one run of bytes, so that the worker hands it back without a copy (piscina moves one value): the
 * length of a JSON header, the header (the request, or that it was not JSON, and the files' sizes), the files.
 */
export function packRead(read: ReadBody): Uint8Array {
  const files = 'invalid' in read ? [] : read.files;
  const header = Buffer.from(
    JSON.stringify('invalid' in read ? read : { request: read.request, sizes: files.map((file) => file.byteLength) }),
  );
  const packed = Buffer.allocUnsafe(4 + header.byteLength + files.reduce((sum, file) => sum + file.byteLength, 0));
  packed.writeUInt32LE(header.byteLength, 0);
  header.copy(packed, 4);
  let at = 4 + header.byteLength;
  for (const file of files) {
    packed.set(file, at);
    at += file.byteLength;
  }
  return packed;
}

/** packRead's bytes read back: the files are views of them. */
export function unpackRead(packed: Uint8Array): ReadBody {
  const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
  const headerLength = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString()) as
    | { invalid: true }
    | { request: unknown; sizes: number[] };
  if ('invalid' in header) return header;
  let at = 4 + headerLength;
  const files = header.sizes.map((size) => {
    const file = bytes.subarray(at, at + size);
    at += size;
    return file;
  });
  return { request: header.request, files };
}

export type BodyTask = { kind: 'read'; body: Uint8Array } | { kind: 'write'; reply: unknown; files: Uint8Array[] };

/**
 * `view`'s bytes in an ArrayBuffer of their own, which can be moved between threads (a small Buffer shares Node's
 * pool, which cannot be moved): a copy only when they are not already.
 */
export function ownBytes(view: Uint8Array): Uint8Array {
  const whole = view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
  return whole && view.buffer instanceof ArrayBuffer && view.byteLength > 0 ? view : new Uint8Array(view);
}

/** The worker: reads a request or writes a reply, handing the bytes back without a copy. */
export default async function bodyWork(task: BodyTask): Promise<unknown> {
  // Loaded by the worker only: the main thread never imports piscina's worker side.
  const { move } = await import('piscina');
  return move(ownBytes(task.kind === 'write' ? writeReply(task.reply, task.files) : packRead(readBody(task.body))));
}
