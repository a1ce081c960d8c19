// Opening an Anki package (.apkg or .colpkg) safely: the zip is checked before anything is unpacked (entry
// count, declared sizes and compression ratios, names), each entry is streamed to a private temp dir with
// its bytes counted as they arrive (so a lying header cannot slip past), the layout is detected
// (collection.anki21b before .anki21 before .anki2), the zstd-compressed parts of the current layout are
// decompressed on the way, and the collection is opened read-only. Every refusal is an AnkiPackageError and
// leaves no temp file behind. The layouts are described in docs/architecture.md.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createZstdDecompress } from 'node:zlib';
import yauzl from 'yauzl';
import { AnkiPackageError, type AnkiPackageErrorCode } from './errors.ts';
import { openCollection } from './open-collection.ts';
import { fieldNumber, fieldPresent, fieldString, readMessage } from './protobuf.ts';
import type { AnkiReader } from './reader.ts';
import type { AnkiLayout, AnkiMedia } from './types.ts';

export interface PackageLimits {
  /** Most entries in the zip (the collection, the media list and every media file). */
  maxEntries: number;
  /** Most bytes everything may unpack (and decompress) to, together. */
  maxTotalBytes: number;
  /** Highest uncompressed/compressed ratio of one entry, checked for entries above ratioFloorBytes. */
  maxEntryRatio: number;
  ratioFloorBytes: number;
  /** Largest single media file, decompressed. */
  maxMediaBytes: number;
  /** Largest media list (the `media` entry), decompressed. */
  maxMediaListBytes: number;
  /** Largest note, its text with its cards and reviews (note-bundles.ts): a larger one is left out, unread. */
  maxNoteBytes: number;
  /** Most that note types (with their fields and templates) and decks may weigh together: they are read whole. */
  maxNoteTypesBytes: number;
}

export const DEFAULT_LIMITS: PackageLimits = {
  maxEntries: 100_000,
  maxTotalBytes: 4 * 1024 ** 3,
  maxEntryRatio: 200,
  ratioFloorBytes: 1024 ** 2,
  maxMediaBytes: 100 * 1024 ** 2,
  maxMediaListBytes: 64 * 1024 ** 2,
  maxNoteBytes: 4 * 1024 ** 2,
  maxNoteTypesBytes: 64 * 1024 ** 2,
};

export interface OpenOptions {
  /** Where the package's private temp dir is made; the system's temp dir by default. */
  tempDir?: string;
}

interface Entry {
  name: string;
  raw: yauzl.Entry;
}

const COLLECTIONS: [AnkiLayout, string][] = [
  ['anki21b', 'collection.anki21b'],
  ['anki21', 'collection.anki21'],
  ['anki2', 'collection.anki2'],
];

/** A top-level name we are willing to write to disk: no directories, no parent, no absolute path, no NUL. */
export function isSafeName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    !/[/\\\0]/.test(name) &&
    name !== '.' &&
    name !== '..' &&
    !/^[a-zA-Z]:/.test(name)
  );
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => (error || !zip ? reject(new AnkiPackageError('notZip', error?.message)) : resolve(zip)),
    );
  });
}

function listEntries(zip: yauzl.ZipFile, limits: PackageLimits): Promise<Entry[]> {
  const entries: Entry[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    if (zip.entryCount > limits.maxEntries) {
      reject(new AnkiPackageError('tooManyFiles', `${zip.entryCount} entries`));
      return;
    }
    zip.on('error', (error: Error) => reject(new AnkiPackageError('notZip', error.message)));
    zip.on('end', () => resolve(entries));
    zip.on('entry', (raw: yauzl.Entry) => {
      const name = Buffer.from(raw.fileName as unknown as Uint8Array).toString(
        raw.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1',
      );
      if (!isSafeName(name)) return reject(new AnkiPackageError('unsafeName', JSON.stringify(name)));
      total += raw.uncompressedSize;
      if (total > limits.maxTotalBytes) return reject(new AnkiPackageError('zipBomb', 'total declared size'));
      const ratio = raw.uncompressedSize / Math.max(1, raw.compressedSize);
      if (raw.uncompressedSize > limits.ratioFloorBytes && ratio > limits.maxEntryRatio) {
        return reject(new AnkiPackageError('zipBomb', `${name}: ratio ${ratio.toFixed(0)}`));
      }
      entries.push({ name, raw });
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/** Counts the bytes flowing through and fails with `code` past `max` (or past the package's budget). */
class Limiter extends Transform {
  count = 0;
  private readonly max: number;
  private readonly code: AnkiPackageErrorCode;
  private readonly budget: { left: number };
  constructor(max: number, code: AnkiPackageErrorCode, budget: { left: number }) {
    super();
    this.max = max;
    this.code = code;
    this.budget = budget;
  }
  override _transform(chunk: Buffer, _encoding: string, done: (error?: Error | null, data?: Buffer) => void) {
    this.count += chunk.length;
    this.budget.left -= chunk.length;
    if (this.budget.left < 0) return done(new AnkiPackageError('zipBomb', 'total unpacked size'));
    if (this.count > this.max) return done(new AnkiPackageError(this.code, `more than ${this.max} bytes`));
    done(null, chunk);
  }
}

function entryStream(zip: yauzl.ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry.raw, (error, stream) =>
      error || !stream ? reject(new AnkiPackageError('notZip', error?.message)) : resolve(stream),
    );
  });
}

/** What a failure inside one entry's pipeline means for the learner. */
function pipelineError(error: unknown, zstdCode: AnkiPackageErrorCode): AnkiPackageError {
  if (error instanceof AnkiPackageError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code ?? '';
  if (/too many bytes/i.test(message)) return new AnkiPackageError('zipBomb', message, { cause: error });
  if (code.startsWith('ERR_ZSTD') || /zstd|unknown frame/i.test(message)) {
    return new AnkiPackageError(zstdCode, message, { cause: error });
  }
  return new AnkiPackageError('notZip', message, { cause: error });
}

interface Unpack {
  zip: yauzl.ZipFile;
  budget: { left: number };
}

async function unpackTo(
  { zip, budget }: Unpack,
  entry: Entry,
  target: string,
  opts: { zstd: boolean; max: number; code: AnkiPackageErrorCode; zstdCode: AnkiPackageErrorCode },
): Promise<number> {
  const limiter = new Limiter(opts.max, opts.code, budget);
  try {
    const source = await entryStream(zip, entry);
    const out = createWriteStream(target);
    if (opts.zstd) await pipeline(source, createZstdDecompress(), limiter, out);
    else await pipeline(source, limiter, out);
  } catch (error) {
    throw pipelineError(error, opts.zstdCode);
  }
  return limiter.count;
}

async function unpackToBuffer(unpack: Unpack, entry: Entry, max: number, zstd: boolean): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const limiter = new Limiter(max, 'corruptMedia', unpack.budget);
  try {
    const source = await entryStream(unpack.zip, entry);
    const collect = async (chunksIn: AsyncIterable<Buffer>) => {
      for await (const chunk of chunksIn) chunks.push(chunk);
    };
    if (zstd) await pipeline(source, createZstdDecompress(), limiter, collect);
    else await pipeline(source, limiter, collect);
  } catch (error) {
    throw pipelineError(error, 'corruptMedia');
  }
  return Buffer.concat(chunks);
}

/** The package version from `meta` (PackageMetadata {version = 1}): 1, 2 legacy, 3 current. */
function packageVersion(meta: Buffer): number {
  try {
    return fieldNumber(readMessage(meta), 1);
  } catch (error) {
    throw new AnkiPackageError('unknownLayout', 'unreadable meta', { cause: error });
  }
}

/** The media list: legacy JSON `{"0": "name.mp3"}`, or MediaEntries {repeated entries = 1 {name = 1,
 * size = 2, sha1 = 3, legacy_zip_filename = 255}} where an entry's file is its position unless it says. */
function mediaList(data: Buffer, current: boolean): { index: string; name: string }[] {
  const list: { index: string; name: string }[] = [];
  try {
    if (!current) {
      const map = JSON.parse(data.toString('utf8') || '{}') as unknown;
      if (typeof map !== 'object' || map === null || Array.isArray(map)) throw new Error('not an object');
      for (const [index, name] of Object.entries(map)) {
        if (typeof name !== 'string') throw new Error('name not a string');
        list.push({ index, name });
      }
    } else {
      let position = 0;
      for (const field of readMessage(data)) {
        if (field.field !== 1 || !field.bytes) continue;
        const entry = readMessage(field.bytes);
        const index = fieldPresent(entry, 255) ? String(fieldNumber(entry, 255)) : String(position);
        list.push({ index, name: fieldString(entry, 1) });
        position++;
      }
    }
  } catch (error) {
    throw new AnkiPackageError('corruptMedia', error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  for (const { name } of list) if (!isSafeName(name)) throw new AnkiPackageError('unsafeName', JSON.stringify(name));
  return list;
}

/** Opens `filePath` as an Anki package; the reader must be closed (it removes the temp files). */
export async function openPackage(
  filePath: string,
  limitsIn: Partial<PackageLimits> = {},
  options: OpenOptions = {},
): Promise<AnkiReader> {
  const limits = { ...DEFAULT_LIMITS, ...limitsIn };
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'engram-anki-'));
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await openZip(filePath);
    const entries = await listEntries(zip, limits);
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    const unpack: Unpack = { zip, budget: { left: limits.maxTotalBytes } };

    const metaEntry = byName.get('meta');
    const version = metaEntry ? packageVersion(await unpackToBuffer(unpack, metaEntry, 1024, false)) : 0;
    if (metaEntry && (version < 1 || version > 3)) throw new AnkiPackageError('unknownLayout', `version ${version}`);
    const found = COLLECTIONS.find(([, name]) => byName.has(name));
    if (!found) throw new AnkiPackageError('unknownLayout', 'no collection');
    const [layout, collectionName] = found;
    if ((version === 3) !== (layout === 'anki21b') && metaEntry) {
      throw new AnkiPackageError('unknownLayout', `version ${version} with ${collectionName}`);
    }
    const current = layout === 'anki21b';

    const collectionPath = join(dir, 'collection.sqlite');
    await unpackTo(unpack, byName.get(collectionName)!, collectionPath, {
      zstd: current,
      max: limits.maxTotalBytes,
      code: 'zipBomb',
      zstdCode: 'corruptDatabase',
    });

    const media: AnkiMedia[] = [];
    const mediaEntry = byName.get('media');
    if (mediaEntry) {
      const list = mediaList(await unpackToBuffer(unpack, mediaEntry, limits.maxMediaListBytes, current), current);
      const mediaDir = join(dir, 'media');
      await mkdir(mediaDir);
      for (const { index, name } of list) {
        const entry = byName.get(index);
        if (!entry || !isSafeName(index)) continue; // Anki itself skips a listed file that is missing.
        if (!current && entry.raw.uncompressedSize > limits.maxMediaBytes) {
          throw new AnkiPackageError('mediaTooLarge', name);
        }
        const path = join(mediaDir, index);
        const size = await unpackTo(unpack, entry, path, {
          zstd: current,
          max: limits.maxMediaBytes,
          code: 'mediaTooLarge',
          zstdCode: 'corruptMedia',
        });
        media.push({ index, name, path, size });
      }
    }
    zip.close();
    zip = undefined;
    return openCollection({
      path: collectionPath,
      layout,
      media,
      dir,
      maxNoteBytes: limits.maxNoteBytes,
      maxNoteTypesBytes: limits.maxNoteTypesBytes,
    });
  } catch (error) {
    zip?.close();
    await rm(dir, { recursive: true, force: true });
    if (error instanceof AnkiPackageError) throw error;
    throw new AnkiPackageError('notZip', error instanceof Error ? error.message : String(error), { cause: error });
  }
}

export type { AnkiReader };
